"""Webhooks: the endpoints, their signing secrets and tests (:mod:`._webhooks`), and the
events sent to them, with their replay (:mod:`._webhook_events`)."""
