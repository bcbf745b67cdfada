"""docker-compose.yml describes service mode (no Docker engine runs here, so it is parsed)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_runs_postgres_redis_web_a_celery_worker_and_its_scheduler():
    services = _compose()["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    assert services["beat"]["command"][:4] == ["celery", "-A", "angryagents", "beat"]
    assert "manage.py serve" in services["web"]["command"]  # Daphne, as many processes as WEB_PROCESSES
    assert services["worker"]["command"][:3] == ["celery", "-A", "angryagents"]


def test_every_service_has_a_health_check():
    for name, service in _compose()["services"].items():
        assert "test" in service.get("healthcheck", {}), name


def test_web_and_worker_wait_for_healthy_databases_and_share_the_environment():
    services = _compose()["services"]
    for name in ("web", "worker"):
        depends = services[name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
    assert services["web"]["environment"] == services["worker"]["environment"]
    env = services["web"]["environment"]
    assert env["DATABASE_URL"].startswith("postgresql://")
    assert env["REDIS_URL"].startswith("redis://")
