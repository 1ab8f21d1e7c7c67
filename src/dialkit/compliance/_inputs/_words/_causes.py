"""The hangup causes switches and carriers write, each with who ended an unanswered call:
what the ring-time rule reads a call's ``hangup_cause`` by (issue 98, item 3).

A carrier or a switch writes why a call ended as an ITU-T Q.850 cause (its number, 1-127,
or its name), a name its switch adds past Q.850, or the SIP final response that ended it.
Each cause below is one value of the vocabulary, named as FreeSWITCH writes it in lower
case (``originator_cancel``); the contract's eight (:class:`~dialkit.contract.HangupCause`)
are among them as they are. Its sources:

- the cause numbers and titles: ITU-T Q.850 (and Q.931's 52 and 54, which switches keep);
- the names: FreeSWITCH's ``CAUSE_CHART`` (``src/switch_channel.c``, numbered in
  ``switch_types.h``) and Asterisk's causes (``include/asterisk/causes.h``, named in
  ``main/channel.c``); a Q.850 cause neither names is named from its Q.850 title;
- the SIP responses (:data:`SIP`): RFC 3398 section 8.2.6.1 ("Response received: Cause
  value in the REL"), and FreeSWITCH's ``sofia_glue_sip_cause_to_freeswitch`` for those
  the RFC maps to no cause (487, 488, 606) or that came after it (607, 608, and the
  identity responses of RFC 8224: 428, 429, 437, 438).

A number in a ``hangup_cause`` cell is read by its range (:func:`numbered`): 1-127 as a
Q.850 cause, 300-699 as a SIP response. FreeSWITCH numbers its own causes past Q.850 487
(``ORIGINATOR_CANCEL``, named after SIP's 487 Request Terminated, which means the same)
and 700-825, past SIP's range: a CDR writes them by name, so those numbers, and any other
no table lists (a Q.850 number unassigned, a SIP response no mapping names), are not
understood: named, and the call held out of the rule, never read as a default.

Who ended an unanswered call (:attr:`Cause.ended_by`): the **caller** (the dialer or its
switch: it cancelled, a timer of its own ran out, it shut down), the **callee** (busy,
rejected, a machine, answered elsewhere) or the **network** (the number or a route does
not exist, a failure or congestion on the way, the call refused). 47 CFR 64.1200(a)(6) and
16 CFR 310.4(b)(4)(ii) bind the caller, so only the caller's causes are judged by
``short_ring``; a cause that does not tell who ended the call is read as the caller's, the
stricter reading, and says why (:attr:`Cause.why`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CALLER, CALLEE, NETWORK = "caller", "callee", "network"
_TIMER = ("a timer ran out before any answer, and the cause does not say whose: the "
          "caller's switch may have given up as well as the network: judged, the stricter "
          "reading")
_SIGNALLING = ("a signalling error either switch may have found, the caller's included: "
               "judged, the stricter reading")
_UNCLEAR = "says nothing of who ended the call: judged, the stricter reading"
_Q850 = "Q.850; FreeSWITCH; Asterisk"
_Q850_ONLY = "Q.850 (named from its title: neither switch names it)"
_FS = "FreeSWITCH (past Q.850)"


@dataclass(frozen=True)
class Cause:
    """One hangup cause: its ``name`` (the vocabulary's value), its Q.850 ``numbers`` (the
    standard's first; none for a switch's own), who ended an unanswered call it ended
    (:data:`CALLER`, :data:`CALLEE` or :data:`NETWORK`), where it is written
    (``source``), other names switches write it by (``also``), and ``why`` where its
    reading is a choice."""

    name: str
    numbers: tuple[int, ...]
    ended_by: str
    source: str
    also: tuple[str, ...] = ()
    why: str = ""


CAUSES = (
    Cause("unallocated_number", (1,), NETWORK, _Q850 + " (UNALLOCATED)", ("unallocated",)),
    Cause("no_route_transit_net", (2,), NETWORK, _Q850),
    Cause("no_route_destination", (3,), NETWORK, _Q850),
    Cause("send_special_information_tone", (4,), NETWORK, _Q850_ONLY),
    Cause("misdialled_trunk_prefix", (5,), NETWORK, "Q.850; Asterisk"),
    Cause("channel_unacceptable", (6,), NETWORK, _Q850),
    Cause("call_awarded_delivered", (7,), CALLER, _Q850, why=_UNCLEAR),
    Cause("pre_empted", (8, 45), NETWORK, "Q.850 8; Asterisk 8; FreeSWITCH 45",
          why="FreeSWITCH (and Asterisk before 1.6) number it 45, Q.850 8: both read"),
    Cause("preemption_circuit_reserved", (9,), NETWORK, _Q850_ONLY),
    Cause("number_ported_not_here", (14,), NETWORK, "Q.850 (QoR: ported number); Asterisk"),
    Cause("normal_clearing", (16,), CALLER, _Q850 + " (also AST_CAUSE_NORMAL)", ("normal",),
          why="before an answer only the caller clears a call normally"),
    Cause("user_busy", (17,), CALLEE, _Q850 + " (also AST_CAUSE_BUSY)", ("busy",)),
    Cause("no_user_response", (18,), CALLER, _Q850, why=_TIMER),
    Cause("no_answer", (19,), CALLER, _Q850 + " (also AST_CAUSE_NOANSWER)", ("noanswer",),
          why="the phone rang unanswered until the call was ended: the ring time judges it"),
    Cause("subscriber_absent", (20,), CALLEE, _Q850 + " (also AST_CAUSE_UNREGISTERED)",
          ("unregistered",)),
    Cause("call_rejected", (21,), CALLEE, _Q850),
    Cause("number_changed", (22,), NETWORK, _Q850),
    Cause("redirection_to_new_destination", (23,), NETWORK,
          "Q.850; FreeSWITCH; Asterisk (REDIRECTED_TO_NEW_DESTINATION)",
          ("redirected_to_new_destination",)),
    Cause("call_rejected_feature_at_destination", (24,), CALLEE, _Q850_ONLY),
    Cause("exchange_routing_error", (25,), NETWORK, "Q.850; FreeSWITCH"),
    Cause("answered_elsewhere", (26,), CALLEE, "Q.850 (non-selected user clearing); Asterisk",
          ("non_selected_user_clearing",)),
    Cause("destination_out_of_order", (27,), CALLEE, _Q850),
    Cause("invalid_number_format", (28,), NETWORK, _Q850),
    Cause("facility_rejected", (29,), NETWORK, _Q850),
    Cause("response_to_status_enquiry", (30,), CALLER, _Q850, why=_UNCLEAR),
    Cause("normal_unspecified", (31,), CALLER, _Q850, why=_UNCLEAR),
    Cause("normal_circuit_congestion", (34,), NETWORK, _Q850 + " (also AST_CAUSE_CONGESTION)",
          ("congestion",)),
    Cause("network_out_of_order", (38,), NETWORK, _Q850 + " (also AST_CAUSE_FAILURE)",
          ("failure",)),
    Cause("permanent_frame_mode_out_of_service", (39,), NETWORK, _Q850_ONLY),
    Cause("permanent_frame_mode_operational", (40,), CALLER, _Q850_ONLY, why=_UNCLEAR),
    Cause("normal_temporary_failure", (41,), NETWORK, _Q850),
    Cause("switch_congestion", (42,), NETWORK, _Q850),
    Cause("access_info_discarded", (43,), CALLER, _Q850, why=_UNCLEAR),
    Cause("requested_chan_unavail", (44,), NETWORK, _Q850),
    Cause("precedence_call_blocked", (46,), NETWORK, _Q850_ONLY),
    Cause("resource_unavailable", (47,), NETWORK, _Q850_ONLY),
    Cause("qos_unavailable", (49,), NETWORK, _Q850_ONLY),
    Cause("facility_not_subscribed", (50,), NETWORK, _Q850),
    Cause("outgoing_call_barred", (52,), NETWORK, "Q.931; FreeSWITCH; Asterisk"),
    Cause("outgoing_calls_barred_within_cug", (53,), NETWORK, _Q850_ONLY),
    Cause("incoming_call_barred", (54,), CALLEE, "Q.931; FreeSWITCH; Asterisk"),
    Cause("incoming_calls_barred_within_cug", (55,), CALLEE, _Q850_ONLY),
    Cause("bearercapability_notauth", (57,), NETWORK, _Q850),
    Cause("bearercapability_notavail", (58,), NETWORK, _Q850),
    Cause("inconsistent_outgoing_access", (62,), NETWORK, _Q850_ONLY),
    Cause("service_unavailable", (63,), NETWORK, "Q.850; FreeSWITCH"),
    Cause("bearercapability_notimpl", (65,), NETWORK, _Q850),
    Cause("chan_not_implemented", (66,), NETWORK, _Q850 + " (also AST_CAUSE_NOSUCHDRIVER)",
          ("nosuchdriver",)),
    Cause("facility_not_implemented", (69,), NETWORK, _Q850),
    Cause("only_restricted_digital_available", (70,), NETWORK, _Q850_ONLY),
    Cause("service_not_implemented", (79,), NETWORK, "Q.850; FreeSWITCH"),
    Cause("invalid_call_reference", (81,), CALLER, _Q850, why=_SIGNALLING),
    Cause("identified_channel_nonexistent", (82,), CALLER, _Q850_ONLY, why=_SIGNALLING),
    Cause("suspended_call_exists", (83,), CALLER, _Q850_ONLY, why=_SIGNALLING),
    Cause("call_identity_in_use", (84,), CALLER, _Q850_ONLY, why=_SIGNALLING),
    Cause("no_call_suspended", (85,), CALLER, _Q850_ONLY, why=_SIGNALLING),
    Cause("call_identity_cleared", (86,), CALLER, _Q850_ONLY, why=_SIGNALLING),
    Cause("user_not_member_of_cug", (87,), NETWORK, _Q850_ONLY),
    Cause("incompatible_destination", (88,), CALLEE, _Q850),
    Cause("nonexistent_cug", (90,), NETWORK, _Q850_ONLY),
    Cause("invalid_transit_network_selection", (91,), NETWORK, _Q850_ONLY),
    Cause("invalid_msg_unspecified", (95,), CALLER, _Q850, why=_SIGNALLING),
    Cause("mandatory_ie_missing", (96,), CALLER, _Q850, why=_SIGNALLING),
    Cause("message_type_nonexist", (97,), CALLER, _Q850, why=_SIGNALLING),
    Cause("wrong_message", (98,), CALLER, _Q850, why=_SIGNALLING),
    Cause("ie_nonexist", (99,), CALLER, _Q850, why=_SIGNALLING),
    Cause("invalid_ie_contents", (100,), CALLER, _Q850, why=_SIGNALLING),
    Cause("wrong_call_state", (101,), CALLER, _Q850, why=_SIGNALLING),
    Cause("recovery_on_timer_expire", (102,), CALLER, _Q850, why=_TIMER),
    Cause("mandatory_ie_length_error", (103,), CALLER, _Q850, why=_SIGNALLING),
    Cause("message_with_unrecognized_parameter", (110,), CALLER, _Q850_ONLY,
          why=_SIGNALLING),
    Cause("protocol_error", (111,), CALLER, _Q850, why=_SIGNALLING),
    Cause("interworking", (127,), CALLER, _Q850,
          why="a network on the way gave no cause: " + _UNCLEAR),
    Cause("success", (), CALLER, _FS, why=_UNCLEAR),
    Cause("originator_cancel", (), CALLER, _FS + "; SIP 487 Request Terminated",
          why="the caller cancelled the call before an answer"),
    Cause("crash", (), CALLER, _FS, why="the caller's switch failed"),
    Cause("system_shutdown", (), CALLER, _FS, why="the caller's switch shut down"),
    Cause("lose_race", (), CALLER, _FS,
          why="the caller's switch ended it when another call it placed was answered"),
    Cause("manager_request", (), CALLER, _FS, why="the caller's own software hung it up"),
    Cause("blind_transfer", (), CALLER, _FS, why=_UNCLEAR),
    Cause("attended_transfer", (), CALLER, _FS, why=_UNCLEAR),
    Cause("allotted_timeout", (), CALLER, _FS,
          why="the caller's own time limit for the call ran out"),
    Cause("user_challenge", (), NETWORK, _FS,
          why="the far end asked the caller to authenticate (SIP 401/407: RFC 3398 reads "
              "them as call rejected)"),
    Cause("media_timeout", (), CALLER, _FS,
          why="the caller's switch hung up on receiving no media: " + _UNCLEAR),
    Cause("picked_off", (), CALLEE, _FS, why="another phone took the call"),
    Cause("user_not_registered", (), CALLEE, _FS),
    Cause("progress_timeout", (), CALLER, _FS,
          why="the caller's switch gave up waiting for the call to progress"),
    Cause("invalid_gateway", (), NETWORK, _FS, why="the call could not be placed"),
    Cause("gateway_down", (), NETWORK, _FS, why="the call could not be placed"),
    Cause("invalid_url", (), NETWORK, _FS, why="the call could not be placed"),
    Cause("invalid_profile", (), NETWORK, _FS, why="the call could not be placed"),
    Cause("no_pickup", (), CALLER, _FS, why=_TIMER),
    Cause("srtp_read_error", (), CALLER, _FS, why=_UNCLEAR),
    Cause("bowout", (), CALLER, _FS, why=_UNCLEAR),
    Cause("busy_everywhere", (), CALLEE, _FS + "; SIP 600"),
    Cause("decline", (), CALLEE, _FS + "; SIP 603"),
    Cause("does_not_exist_anywhere", (), NETWORK, _FS + "; SIP 604"),
    Cause("not_acceptable", (), CALLEE, _FS + "; SIP 606"),
    Cause("unwanted", (), CALLEE, _FS + "; SIP 607 (RFC 8197)"),
    Cause("no_identity", (), NETWORK, _FS + "; SIP 428 (RFC 8224)"),
    Cause("bad_identity_info", (), NETWORK, _FS + "; SIP 429 (RFC 8224)"),
    Cause("unsupported_certificate", (), NETWORK, _FS + "; SIP 437 (RFC 8224)"),
    Cause("invalid_identity", (), NETWORK, _FS + "; SIP 438 (RFC 8224)"),
    Cause("stale_date", (), NETWORK, _FS + "; SIP 403 Stale Date (RFC 8224)"),
    Cause("reject_all", (), NETWORK, _FS + "; SIP 608 (RFC 8688)"),
)
"""Every cause a ``hangup_cause`` may name (see the module), one row each."""
NONE = ("none", "notdefined")
"""FreeSWITCH's ``NONE`` (0) and Asterisk's ``NOTDEFINED``: no cause recorded, read as an
empty cell (the call judged as one whose end nothing tells)."""

_RFC_3398 = "RFC 3398 8.2.6.1"
_SOFIA = "FreeSWITCH sofia_glue_sip_cause_to_freeswitch (RFC 3398 maps none)"
SIP: dict[int, tuple[str, str]] = {
    **{code: ("normal_temporary_failure", _RFC_3398) for code in (400, 481, 500, 503)},
    **{code: ("call_rejected", _RFC_3398) for code in (401, 402, 403, 407, 603)},
    **{code: ("unallocated_number", _RFC_3398) for code in (404, 485, 604)},
    405: ("service_unavailable", _RFC_3398),
    **{code: ("service_not_implemented", _RFC_3398) for code in (406, 415, 501)},
    **{code: ("recovery_on_timer_expire", _RFC_3398) for code in (408, 504)},
    410: ("number_changed", _RFC_3398),
    **{code: ("interworking", _RFC_3398)
       for code in (413, 414, 416, 420, 421, 423, 505, 513)},
    480: ("no_user_response", _RFC_3398),
    **{code: ("exchange_routing_error", _RFC_3398) for code in (482, 483)},
    484: ("invalid_number_format", _RFC_3398),
    **{code: ("user_busy", _RFC_3398) for code in (486, 600)},
    502: ("network_out_of_order", _RFC_3398),
    487: ("originator_cancel", _SOFIA),
    **{code: ("incompatible_destination", _SOFIA) for code in (488, 606)},
    607: ("unwanted", _SOFIA),
    608: ("call_rejected", _SOFIA),
    428: ("no_identity", _SOFIA),
    429: ("bad_identity_info", _SOFIA),
    437: ("unsupported_certificate", _SOFIA),
    438: ("invalid_identity", _SOFIA),
}
"""Each SIP final response a ``hangup_cause`` may hold, the cause it means and the
mapping that says so (FreeSWITCH reads 485 and 604 as ``no_route_destination``, RFC 3398
as ``unallocated_number``: the RFC is kept, and either is the network's)."""
Q850_NUMBERS = range(1, 128)
SIP_NUMBERS = range(300, 700)


def names() -> tuple[str, ...]:
    """Every cause's name, in the table's order."""
    return tuple(cause.name for cause in CAUSES)


def other_words() -> dict[str, str | None]:
    """Every other way a cause is written, to its name: the other switches' names, the
    Q.850 numbers and the SIP responses (as text: :func:`numbered` reads a cell's number
    so), and the names of no cause (:data:`NONE`, to no value)."""
    words: dict[str, str | None] = {word: None for word in NONE}
    for cause in CAUSES:
        words.update({other: cause.name for other in cause.also})
        words.update({str(number): cause.name for number in cause.numbers})
    words.update({str(code): name for code, (name, _) in SIP.items()})
    return words


def numbered(value: object) -> object:
    """A cell's cause number as the table writes it (``16.0``, a number of a column with
    empty cells, as ``16``), where it is a whole number of the Q.850 or the SIP range;
    any other value as written."""
    try:
        number = float(str(value).strip())
    except ValueError:
        return value
    if not math.isfinite(number) or not number.is_integer():
        return value
    whole = int(number)
    return str(whole) if whole in Q850_NUMBERS or whole in SIP_NUMBERS else value


def not_the_callers() -> frozenset[str]:
    """The causes of a call the callee or the network ended, which ``short_ring`` does not
    judge."""
    return frozenset(cause.name for cause in CAUSES if cause.ended_by != CALLER)
