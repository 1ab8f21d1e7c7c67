"""Scopes, tiers and the per-account switches that unlock tier 2.

Every operation names one scope (``GET /v1/me`` names none). Tier 1 scopes
are safe or reduce contact; tier 2 scopes can reach or unlock real people and
also need an account :class:`Switch`, off until the operator enables it.
"""

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class Scope(StrEnum):
    """Every scope of the contract's Scopes table."""

    LEADS_READ = "leads:read"
    LEADS_WRITE = "leads:write"
    CAMPAIGNS_READ = "campaigns:read"
    CAMPAIGNS_PAUSE = "campaigns:pause"
    CAMPAIGNS_RESUME = "campaigns:resume"
    CALLS_READ = "calls:read"
    CALLS_ORIGINATE = "calls:originate"
    RECORDINGS_READ = "recordings:read"
    TRANSCRIPTS_READ = "transcripts:read"
    SUMMARIES_READ = "summaries:read"
    WEBHOOKS_READ = "webhooks:read"
    WEBHOOKS_WRITE = "webhooks:write"
    DNC_CHECK = "dnc:check"
    DNC_ADD = "dnc:add"
    CONSENT_WRITE = "consent:write"
    CALLBACKS_READ = "callbacks:read"
    CALLBACKS_CANCEL = "callbacks:cancel"
    CALLBACKS_WRITE = "callbacks:write"
    APPOINTMENTS_READ = "appointments:read"
    APPOINTMENTS_WRITE = "appointments:write"
    SMS_READ = "sms:read"
    MESSAGES_SEND = "messages:send"
    WHATSAPP_SEND = "whatsapp:send"
    REPORTS_READ = "reports:read"


class Switch(StrEnum):
    """The six per-account switches gating tier 2 scopes."""

    TIER2_CAMPAIGN_RESUME_ENABLED = "tier2_campaign_resume_enabled"
    TIER2_CALLBACK_WRITE_ENABLED = "tier2_callback_write_enabled"
    TIER2_APPOINTMENT_WRITE_ENABLED = "tier2_appointment_write_enabled"
    TIER2_CONSENT_WRITE_ENABLED = "tier2_consent_write_enabled"
    TIER2_SMS_SEND_ENABLED = "tier2_sms_send_enabled"
    TIER2_CALLS_ORIGINATE_ENABLED = "tier2_calls_originate_enabled"


SCOPE_SWITCH: Mapping[Scope, Switch] = MappingProxyType(
    {
        Scope.CAMPAIGNS_RESUME: Switch.TIER2_CAMPAIGN_RESUME_ENABLED,
        Scope.CALLS_ORIGINATE: Switch.TIER2_CALLS_ORIGINATE_ENABLED,
        Scope.CONSENT_WRITE: Switch.TIER2_CONSENT_WRITE_ENABLED,
        Scope.CALLBACKS_WRITE: Switch.TIER2_CALLBACK_WRITE_ENABLED,
        Scope.APPOINTMENTS_WRITE: Switch.TIER2_APPOINTMENT_WRITE_ENABLED,
        Scope.MESSAGES_SEND: Switch.TIER2_SMS_SEND_ENABLED,
    }
)
"""The switch each tier 2 scope needs; off means 403 ``tier_not_enabled``."""

SCOPE_TIER: Mapping[Scope, int] = MappingProxyType(
    {scope: 2 if scope in SCOPE_SWITCH else 1 for scope in Scope}
)
"""Tier of every scope: 2 for those gated by a switch, 1 for the rest."""

SENDING_SCOPES: frozenset[Scope] = frozenset({Scope.CALLS_ORIGINATE, Scope.MESSAGES_SEND})
"""Scopes whose operations also need a key from the guided sending setup."""
