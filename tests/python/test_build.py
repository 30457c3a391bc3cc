"""Building programs from Python: assemble, link, the Layout builder and Image."""
import numpy as np
import pytest

import tessera
from conftest import DATA, TUTORIAL

SEND = TUTORIAL / "03_send"


def test_assemble_a_file_and_text(tmp_path):
    obj = tessera.assemble(DATA / "dtypes.s", output=tmp_path / "dtypes.tobj")
    assert "bump" in obj.symbols and "af16" in obj.symbols
    assert (tmp_path / "dtypes.tobj").read_text().startswith("tessera-object")
    assert "lw" in obj.listing and obj.warnings == []
    text = obj_text = (DATA / "dtypes.s").read_text().replace(".equ    N, 6", ".equ    N, M")
    o2 = tessera.assemble(text=text, name="mine.s", defines={"M": 6})
    o2.save(tmp_path / "mine.tobj")
    assert o2.symbols == obj.symbols


def test_a_layout_built_in_python_matches_the_file(tmp_path):
    lay = tessera.Layout(2, 1, base_dir=SEND)
    lay.let("C", 3)
    lay.region(0, 0, "sender.s", params={"C": "C"})
    lay.region(1, 0, ["receiver.s"], params={"C": 3})
    lay.route("C", 0, 0, rx="RAMP", tx="E")
    lay.route(3, (1, "FW-1"), 0, rx=["W"], tx=["RAMP"])
    assert "region at=0,0 size=1,1 program=sender.s param C=C" in lay.text
    built = lay.link(output=tmp_path / "send.timg")
    from_file = tessera.link(SEND / "send.tlayout")
    assert built.text() == from_file.text()
    assert tessera.read_image(tmp_path / "send.timg").text() == built.text()
    assert built.fabric == (2, 1) and built.programs == 2
    sym = built.symbols(1, 0)["buf"]
    assert sym["dtype"] == np.float32 and sym["count"] == 32 and sym["exported"]
    assert built.unconnected_routes() == []


def test_layout_objects_and_when(tmp_path):
    tessera.assemble(DATA / "dtypes.s", output=tmp_path / "d.tobj")
    lay = tessera.Layout("2", "1+1", base_dir=tmp_path)
    lay.region(0, 0, "d.tobj", w="FW", h=2, when="(x+y)%2==0")
    img = lay.link()
    assert img.fabric == (2, 2)
    with pytest.raises(ValueError, match="has no program"):
        img.symbols(1, 0)
    assert "bump" in img.symbols(1, 1)


def test_route_switch_positions_and_unconnected_warnings():
    lay = tessera.Layout(2, 1, base_dir=SEND)
    lay.route(4, 0, 0, rx="RAMP", tx="E", pos=["tx:S", "base"], ring=True)
    img = lay.link()
    assert "switch 0x" in img.text()
    assert img.unconnected_routes() == [
        "PE(0,0) sends color 4 east (E), but PE(1,0) has no route of color 4"]


def test_layout_errors_name_the_statement():
    lay = tessera.Layout(2, 1, base_dir=SEND)
    lay.region(0, 0, "nosuch.s")
    with pytest.raises(tessera.AssemblyError, match=r"(?s)nosuch.s: error: cannot read.*<tessera.Layout>:2:1: note"):
        lay.link()
    lay = tessera.Layout(1, 1, base_dir=SEND)
    lay.region(0, 0, "receiver.s")  # param C has no value
    with pytest.raises(ValueError, match="C"):
        lay.link()


@pytest.mark.parametrize("call, match", [
    (lambda l: l.let("1x", 3), "let name '1x'"),
    (lambda l: l.let("A", "3 param B=4"), "let A '3 param B=4'"),
    (lambda l: l.region(0, 0, "a.s", params={"N": "1\nregion"}), "param N"),
    (lambda l: l.region(0, 0, "a,b.s"), "comma"),
    (lambda l: l.region(0, 0, "a.s", params={"bad name": 1}), "param 'bad name'"),
    (lambda l: l.route(3, 0, 0, rx="UP", tx="E"), "route rx 'UP'"),
    (lambda l: l.route(3, 0, 0, rx="W", tx=[]), "route tx: name at least one"),
    (lambda l: l.route(3, (0, 1, 2), 0, rx="W", tx="E"), "route x: a range"),
    (lambda l: l.region(True, 0, "a.s"), "region x: expected an integer"),
    (lambda l: l.route(3, 0, 0, rx="W", tx="E", pos=["tx:E"] * 4), "at most three"),
])
def test_layout_builder_refuses_bad_arguments(call, match):
    lay = tessera.Layout(2, 1)
    with pytest.raises(ValueError, match=match):
        call(lay)
    assert lay.text == "fabric 2,1\n"  # nothing was added


def test_assembly_errors():
    with pytest.raises(tessera.AssemblyError, match=r"bad.s:1:\d+: error"):
        tessera.assemble(text="        frob r1, r2\n", name="bad.s")
    with pytest.raises(ValueError, match="no such file"):
        tessera.assemble("/nonexistent/x.s")
    with pytest.raises(ValueError, match="path or text=, not both"):
        tessera.assemble(DATA / "dtypes.s", text="")
    with pytest.raises(ValueError, match="no such file"):
        tessera.link("/nonexistent/x.tlayout")
    assert issubclass(tessera.AssemblyError, tessera.Error)
    assert issubclass(tessera.AssemblyError, ValueError)


def test_read_image_errors(tmp_path):
    bad = tmp_path / "bad.timg"
    bad.write_text("tessera-image 1\nfabric x 2\n")
    with pytest.raises(tessera.AssemblyError, match=r"bad.timg:2"):
        tessera.read_image(bad)
