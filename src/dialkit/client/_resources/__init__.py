"""What the client asks: one module per area of the contract
(``client.calls``, ``client.leads``, ...) over what every resource class shares
(``_base``)."""
