import os

# LiteLLM downloads its price list at import unless told to use the bundled copy.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from angryagents.celery import app as celery_app

__all__ = ["celery_app"]
