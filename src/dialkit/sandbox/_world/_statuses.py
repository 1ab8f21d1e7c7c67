"""The statuses of the world's calls, as integers (``STATUSES`` by index): what both the
calls' generation and the count of abandonment's periods read, in a module of their own
so that neither imports the other."""

STATUSES = ("completed", "no-answer", "busy", "failed", "voicemail")
COMPLETED, NO_ANSWER, BUSY, FAILED, VOICEMAIL = range(5)
