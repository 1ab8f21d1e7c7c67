"""What an audit reads: the frames fetched from an account (``_load``) or read
back from an export (``_read``), checked column by column (``_columns``), each made ready
for the checks by one reader (``_prepared``), the declared emergencies read into the
rules (``_emergencies``), and what was looked at (``_population``)."""
