"""The HTTP service: REST under `/v1` over the Memory facade, API keys bound to users,
limits, metrics, offline docs (`dualtrace serve`; see `app.create_app`)."""
