"""cerebras.sdk.debug for Tessera."""
