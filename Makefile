# Tessera top-level commands. `make sim` and `make test` work on a fresh Debian machine: they
# install what is missing (scripts/setup.sh, apt), configure, build, then run.
BUILD    ?= build
JOBS     ?= $(shell nproc)
CMAKE_ARGS ?=
TESSERA  := $(BUILD)/bin/tessera

.PHONY: all setup configure build test sim sim-long sim-csl sanitize fuzz lint synth bench gen format clean

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

configure: setup $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Unit, directed and co-simulation tests (quick; what CI runs).
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L quick

# The main regression: random-traffic and random-program (CE) co-simulation, and every shared FP
# vector on the RTL.
sim: build
	bash scripts/regress.sh $(TESSERA) sim

# Longer regressions (bigger fabrics, more cycles and seeds).
sim-long: build
	bash scripts/regress.sh $(TESSERA) long

# A checkout of the SDK's public examples, unchanged: every tutorial and benchmark, each PASS,
# REFUSED (a feature Tessera does not have yet) or FAIL (docs/csl.md). BACKENDS="func cosim".
sim-csl: build
	@test -n "$(SDK_EXAMPLES)" || { echo "make sim-csl: set SDK_EXAMPLES=/path/to/sdk-examples (a checkout of github.com/Cerebras/sdk-examples)"; exit 2; }
	bash scripts/sdk_examples.sh "$(SDK_EXAMPLES)" $(BUILD)/sdk_examples

# AddressSanitizer + UBSan build in build-sanitize/: the quick tests, random programs, noc cosim.
sanitize: setup
	bash scripts/sanitize.sh

# libFuzzer targets of the parsers (clang, build-fuzz/), FUZZ_SECONDS each (default 30).
fuzz: setup
	bash scripts/fuzz.sh

lint: setup
	bash scripts/lint.sh

synth: setup
	bash scripts/synth.sh

bench: build
	bash bench/run.sh $(BUILD)

# Regenerate the RTL package, the decoders and the C++ constants from model/arch/*.def.
gen: configure
	cmake --build $(BUILD) --target tessera_archgen
	$(BUILD)/bin/tessera_archgen .

format:
	git ls-files '*.cpp' '*.h' | grep -v -e '^model/arch/arch.h$$' -e '^model/arch/isa_table.h$$' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
