"""The public SDK's Python packages, as Tessera provides them (docs/csl.md, "Running SDK programs").

`cerebras.sdk.runtime.sdkruntimepybind` runs the output folder of Tessera's `cslc` on the
functional model, the RTL or in co-simulation (TESSERA_BACKEND), with the SDK's calls.
"""
