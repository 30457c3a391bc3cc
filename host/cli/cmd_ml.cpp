// `tessera ml`: ML layers on the fabric (docs/ml.md).
//
//   tessera ml mlp --layers 64,32,10 --batch 16 --dtype f16 --mode streaming --backend cosim --json
//   tessera ml mlp --layers 64,32,10 --train 3 --backend rtl
//   tessera ml train-digits --epochs 20 --plot loss.svg
//
// Exit status: 0 when it passed (train-digits: reached --target); 1 when it ran and failed (a
// fault, a deadlock, a cosim difference, an error above the tolerance); 2 on bad input, before
// anything runs.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>
#include <string>

#include "args.h"
#include "asm/diagnostics.h"
#include "commands.h"
#include "ml/mlp_check.h"
#include "ml/train.h"
#include "util/json.h"

namespace tessera::cli {
namespace {

struct MlCliArgs {
  std::string layers = "64,32,10", dtype = "f32", mode = "resident", act = "relu";
  int batch = 16, pes = 0, train = 0, epochs = 10, max_steps = 0, test_batches = 0;
  double sparsity = 0, target = 0.95;
  float lr = 0.05f, momentum = 0.9f;
  std::string backend = "func", tile = "auto", firmware, load, save, data, plot;
  uint64_t seed = 1, max_cycles = 200'000'000;
  bool json = false;
};

// The spec and the fabric options shared by both subcommands.
void ParseCommon(const MlCliArgs& a, ml::MlpSpec& spec, ml::FabricOptions& fab) {
  spec.layers = ml::ParseLayers(a.layers);
  spec.batch = a.batch;
  if (a.dtype != "f32" && a.dtype != "f16")
    throw std::invalid_argument(fmt::format("--dtype '{}': give f32 or f16", a.dtype));
  spec.f16 = a.dtype == "f16";
  spec.mode = ml::ParseMode(a.mode);
  spec.act = ml::ParseActivation(a.act);
  spec.sparsity = a.sparsity;
  spec.pes = a.pes;
  fab.backend = runtime::ParseBackend(a.backend);
  if (a.tile != "auto") fab.tile = ParsePair(a.tile, "--tile", 'x');
  fab.max_cycles = a.max_cycles;
  fab.firmware_dir = a.firmware;
}

int RunMlp(const MlCliArgs& a) {
  ml::MlpCheckArgs args;
  ml::MlpCheckResult r;
  try {
    ParseCommon(a, args.spec, args.fabric);
    args.seed = a.seed;
    args.train_steps = a.train;
    args.lr = a.lr;
    args.momentum = a.momentum;
    args.load_dir = a.load;
    args.save_dir = a.save;
    r = ml::RunMlpCheck(args);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "tessera ml mlp: {}\n", e.what());
    return 2;
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "tessera ml mlp: the device code does not build:\n{}\n", e.what());
    return 2;
  }
  const ml::MlpSpec& s = args.spec;
  fmt::print(
      "mlp {} batch {} {} {}{} on {}x1 ({}): {} ({}) after {} cycles{}, max error {:.3g} "
      "(normwise, tolerance {:.3g}){}{}\n",
      a.layers, s.batch, a.dtype, a.mode, s.Sparse() ? fmt::format(" sparsity {}", s.sparsity) : "",
      r.pes, a.backend, r.pass ? "pass" : "FAIL", r.status, r.cycles,
      a.train ? fmt::format(" ({} training steps)", a.train) : "", r.max_rel_err, r.tolerance,
      r.loss >= 0 ? fmt::format(", loss {:.5g}", r.loss) : "",
      args.fabric.backend == runtime::Backend::kCosim && r.pass
          ? fmt::format("; func and rtl agree ({} link wavelets compared)", r.link_wavelets)
          : "");
  if (!r.pass && !r.message.empty()) fmt::print(stderr, "{}\n", r.message);
  if (a.json) {
    util::JsonObject phases;
    phases.Add("forward", r.phases.forward)
        .Add("collectives", r.phases.collectives)
        .Add("loss", r.phases.loss)
        .Add("backward", r.phases.backward)
        .Add("update", r.phases.update);
    util::JsonObject j;
    j.Add("layers", a.layers)
        .Add("batch", s.batch)
        .Add("dtype", a.dtype)
        .Add("mode", a.mode)
        .Add("act", a.act)
        .Add("sparsity", s.sparsity)
        .Add("backend", a.backend)
        .Add("pes", r.pes)
        .Add("train_steps", a.train)
        .Add("pass", r.pass)
        .Add("status", r.status)
        .Add("cycles", r.cycles)
        .Add("max_rel_err", r.max_rel_err)
        .Add("tolerance", r.tolerance)
        .Add("macs", r.macs)
        .Add("nonzeros", r.nonzeros)
        .Add("fmac_utilization", r.fmac_utilization)
        .Add("words_streamed_in", r.words_streamed_in)
        .Add("words_streamed_out", r.words_streamed_out)
        .Add("phases", phases);
    if (r.loss >= 0) j.Add("loss", r.loss);
    if (r.accuracy >= 0) j.Add("accuracy", r.accuracy);
    if (args.fabric.backend == runtime::Backend::kCosim)
      j.Add("mismatches", r.status == "mismatch" ? 1 : 0).Add("link_wavelets", r.link_wavelets);
    fmt::print("{}\n", j.str());
  }
  return r.pass ? 0 : 1;
}

int RunTrainDigits(const MlCliArgs& a) {
  ml::TrainArgs args;
  ml::TrainResult r;
  const bool tty = isatty(STDERR_FILENO);
  auto progress = [&](const ml::EpochReport& e) {
    if (e.done) {
      if (tty) fmt::print(stderr, "\r\033[K");
      fmt::print("epoch {:>3}/{}: loss {:.4f}, test accuracy {:.1f}% ({} cycles so far)\n", e.epoch,
                 e.epochs, e.loss, 100 * e.test_accuracy, e.cycles);
      std::fflush(stdout);
    } else if (tty) {
      const int width = 30, fill = e.steps ? width * e.step / e.steps : width;
      fmt::print(stderr, "\repoch {:>3}/{} [{}{}] {}/{} loss {:.4f}", e.epoch, e.epochs,
                 std::string(fill, '#'), std::string(width - fill, '.'), e.step, e.steps, e.loss);
    }
  };
  try {
    ParseCommon(a, args.spec, args.fabric);
    if (args.spec.Sparse())
      throw std::invalid_argument("--sparsity: train-digits trains dense layers");
    if (!(a.target >= 0 && a.target <= 1))
      throw std::invalid_argument(fmt::format("--target {}: give an accuracy in [0, 1]", a.target));
    args.epochs = a.epochs;
    args.max_steps = a.max_steps;
    args.test_batches = a.test_batches;
    args.lr = a.lr;
    args.momentum = a.momentum;
    args.seed = a.seed;
    args.data = a.data;
    args.plot = a.plot;
    args.load_dir = a.load;
    args.save_dir = a.save;
    r = ml::TrainDigits(args, progress);
  } catch (const std::invalid_argument& e) {
    if (tty) fmt::print(stderr, "\n");
    fmt::print(stderr, "tessera ml train-digits: {}\n", e.what());
    return 2;
  } catch (const assembler::Error& e) {
    fmt::print(stderr, "tessera ml train-digits: the device code does not build:\n{}\n", e.what());
    return 2;
  }
  const bool pass = r.ok && r.test_accuracy >= a.target;
  fmt::print(
      "train-digits {} batch {} {} {} on {}x1 ({}): {} training and {} test samples, {} steps, "
      "{} cycles: test accuracy {:.2f}% ({} the target {:.0f}%)\n",
      a.layers, a.batch, a.dtype, a.mode, r.pes, a.backend, r.train_samples, r.test_samples,
      r.steps, r.cycles, 100 * r.test_accuracy, pass ? "reaches" : "BELOW", 100 * a.target);
  if (!r.ok) fmt::print(stderr, "{}\n", r.message);
  if (!a.plot.empty() && !r.step_loss.empty()) fmt::print("loss curve: {}\n", a.plot);
  if (a.json) {
    util::JsonObject j;
    std::string losses = "[", accs = "[";
    for (size_t i = 0; i < r.epoch_loss.size(); ++i) {
      losses += fmt::format("{}{:.6g}", i ? "," : "", r.epoch_loss[i]);
      accs += fmt::format("{}{:.6g}", i ? "," : "", r.epoch_accuracy[i]);
    }
    j.Add("layers", a.layers)
        .Add("batch", a.batch)
        .Add("dtype", a.dtype)
        .Add("mode", a.mode)
        .Add("backend", a.backend)
        .Add("pes", r.pes)
        .Add("pass", pass)
        .Add("accuracy", r.test_accuracy)
        .Add("loss", r.epoch_loss.empty() ? -1.0 : r.epoch_loss.back())
        .Add("steps", r.steps)
        .Add("cycles", r.cycles)
        .Add("macs", r.macs)
        .Add("fmac_utilization", r.fmac_utilization)
        .AddRaw("epoch_loss", losses + "]")
        .AddRaw("epoch_accuracy", accs + "]");
    fmt::print("{}\n", j.str());
  }
  return pass ? 0 : 1;
}

void AddModelOptions(CLI::App* cmd, MlCliArgs& a) {
  cmd->add_option("--layers", a.layers, "Feature counts: inputs,hidden...,classes (2 to 5)");
  cmd->add_option("--batch", a.batch, "Samples per batch (1..256)");
  cmd->add_option("--dtype", a.dtype, "f32, or f16 (f16 weights and activations, f32 sums)");
  cmd->add_option("--mode", a.mode, "resident (weights in PE memory) or streaming (from the host)");
  cmd->add_option("--act", a.act, "Activation of the hidden layers: relu or gelu");
  cmd->add_option("--pes", a.pes, "PEs in the row (0: the fewest the model fits on)");
  cmd->add_option("--lr", a.lr, "SGD learning rate");
  cmd->add_option("--momentum", a.momentum, "SGD momentum");
  cmd->add_option("--seed", a.seed, "Seed of the weights and batches");
  cmd->add_option("--backend", a.backend, "func, rtl or cosim (both, compared)");
  cmd->add_option("--tile", a.tile, "RTL tile TWxTH, or auto");
  cmd->add_option("--max-cycles", a.max_cycles, "Stop a run with a diagnosis after this many");
  cmd->add_option("--firmware", a.firmware,
                  "The folder holding ml/mlp.s and lib/ (default: the source tree's firmware)");
  cmd->add_flag("--json", a.json, "Print a JSON summary as the last line");
}

}  // namespace

void AddMlCommand(CLI::App& app) {
  auto a = std::make_shared<MlCliArgs>();
  auto d = std::make_shared<MlCliArgs>();
  CLI::App* ml = app.add_subcommand("ml",
                                    "ML layers on the fabric: an MLP checked against a "
                                    "host reference, and training on the digits");
  ml->require_subcommand(1);
  CLI::App* mlp = ml->add_subcommand(
      "mlp",
      "Forward (and --train steps) of a random MLP, checked layer by layer and step by "
      "step against a double-precision host reference");
  AddModelOptions(mlp, *a);
  mlp->add_option("--sparsity", a->sparsity,
                  "Fraction of zero weights in [0, 1): > 0 stores or streams only the nonzeros");
  mlp->add_option("--train", a->train, "Training steps (0: the forward only)");
  mlp->add_option("--load", a->load,
                  "A folder with w<l>.npy, b<l>.npy, x.npy (and labels.npy) to use instead");
  mlp->add_option("--save", a->save,
                  "A folder to write logits, gradients and the updated parameters to (.npy)");
  mlp->callback([a] {
    const int rc = RunMlp(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
  CLI::App* td = ml->add_subcommand(
      "train-digits",
      "Train an MLP on the handwritten digits (python3-sklearn's CSV) on the fabric");
  AddModelOptions(td, *d);
  td->add_option("--epochs", d->epochs, "Passes over the training set");
  td->add_option("--max-steps", d->max_steps, "Steps per epoch at most (0: every full batch)");
  td->add_option("--test-batches", d->test_batches,
                 "Batches of the test set to evaluate (0: all of it)");
  td->add_option("--data", d->data, "The digits CSV (.csv or .csv.gz; default: sklearn's)");
  td->add_option("--plot", d->plot, "Write the loss curve to this .svg file");
  td->add_option("--load", d->load,
                 "Start from the weights in this folder (w<l>.npy (outputs, inputs), b<l>.npy)");
  td->add_option("--save", d->save,
                 "Write the trained weights to this folder (w<l>.npy, b<l>.npy)");
  td->add_option("--target", d->target, "Test accuracy to reach for exit status 0");
  td->callback([d] {
    const int rc = RunTrainDigits(*d);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace tessera::cli
