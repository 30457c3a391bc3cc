"""cerebras.sdk for Tessera: runtime (SdkRuntime), sdk_utils and debug."""
