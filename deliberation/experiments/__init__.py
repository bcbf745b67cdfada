"""Jury-realism experiments: many AI-only deliberations per case, held against real juries.

``selection`` turns a case selector into cases, ``simulate`` runs one deliberation on the pure
engine (no database writes, so worker processes never contend for the database), ``services``
stores every run and the experiment's figures, ``measures`` computes those figures from plain run
records, and ``views`` shows them at ``/experiments/``.
"""
