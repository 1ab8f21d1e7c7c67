"""The rules an audit applies: the policy (``_rules``), the law of the place
called as arrays (``_place_law``), the jurisdiction table (``_jurisdictions``) and the states
checked without a row (``_checked_states``), the clocks of a lead's address state
(``_address_clock``), and the generated docs of all of them (``_jurisdictions_docs``)."""
