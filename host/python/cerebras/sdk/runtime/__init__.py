"""cerebras.sdk.runtime for Tessera: sdkruntimepybind holds SdkRuntime."""
