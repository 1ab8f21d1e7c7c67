"""What no rule read: a call to a country whose law the rules hold no row of, a risk of
its own (``_no_law``), and what each rule could not judge, so that its verdict is *not
judged*, never passed (``_unjudged``; issue 98)."""
