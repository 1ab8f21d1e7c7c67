"""What an audit reads (issue 63): the frames fetched from an account (``_load``) or read
back from an export (``_read``), checked column by column (``_columns``), and what was
looked at (``_population``)."""
