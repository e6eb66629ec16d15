"""The verified copy of the dequantised model: the same model as the GGUF file gives, read
only when every check passes, and the way the shipped weights are put back."""

import dataclasses
import json

import pytest

from realmodel import model, weights_cache

torch = pytest.importorskip("torch", reason="torch is not installed (requirements-model.txt)")


def tiny_model():
    """A module with a tied weight, as the real model's embedding and output layer are."""
    net = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
    net[1].weight = net[0].weight
    return net


def fake_copy(place, gguf_sha="a" * 64, files=None):
    """A copy's folder with a manifest that names ``files`` (name -> bytes)."""
    place.mkdir(parents=True)
    files = files or {weights_cache.WEIGHTS: b"weights", "config.json": b"{}"}
    for name, data in files.items():
        (place / name).write_bytes(data)
    manifest = {
        "gguf_sha256": gguf_sha,
        "versions": weights_cache.versions(),
        "files": {name: weights_cache.file_sha256(place / name) for name in files},
    }
    (place / weights_cache.MANIFEST).write_text(json.dumps(manifest))
    return place


def test_a_copy_is_read_only_when_every_check_passes(tmp_path):
    place = fake_copy(tmp_path / "copy")
    expected = weights_cache.file_sha256(place / weights_cache.WEIGHTS)
    assert weights_cache.verified(place, "a" * 64) == expected
    assert weights_cache.verified(place, "b" * 64) is None  # made from another GGUF file
    (place / "config.json").write_bytes(b'{"changed": 1}')
    assert weights_cache.verified(place, "a" * 64) is None  # a file differs from its hash
    assert weights_cache.verified(tmp_path / "nothing", "a" * 64) is None


def test_a_copy_made_by_other_library_versions_is_not_read(tmp_path):
    place = fake_copy(tmp_path / "copy")
    manifest = json.loads((place / weights_cache.MANIFEST).read_text())
    manifest["versions"]["transformers"] = "0.0.1"
    (place / weights_cache.MANIFEST).write_text(json.dumps(manifest))
    assert weights_cache.verified(place, "a" * 64) is None
    assert weights_cache.folder(tmp_path, "a" * 64).name.startswith("a" * 16 + "-transformers")


def test_a_root_that_cannot_be_made_gives_a_folder_of_the_process_own(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    own = weights_cache.usable_root(blocked / "cache")
    assert own.is_dir() and own != blocked / "cache"
    assert weights_cache.usable_root(tmp_path / "made") == tmp_path / "made"


def test_weights_go_back_in_place_tied_ones_too_and_a_changed_file_is_refused(tmp_path):
    from safetensors.torch import save_model

    net = tiny_model()
    weights = tmp_path / weights_cache.WEIGHTS
    save_model(net, str(weights))
    shipped = net[0].weight.detach().clone()
    sha = weights_cache.file_sha256(weights)
    with torch.no_grad():
        net[0].weight.add_(1.0)
    weights_cache.read_weights_into(net, weights, sha)
    assert torch.equal(net[0].weight, shipped) and net[1].weight is net[0].weight
    with torch.no_grad():
        net[0].weight.add_(1.0)
    with pytest.raises(weights_cache.CacheError, match="changed on disk"):
        weights_cache.read_weights_into(net, weights, "0" * 64)
    with pytest.raises(weights_cache.CacheError, match="cannot be read"):
        weights_cache.read_weights_into(net, tmp_path / "gone", sha)
    assert torch.equal(net[0].weight, shipped + 1.0)  # refused before anything was copied


@pytest.fixture(scope="module")
def from_gguf_and_copy(loaded):
    """(model, tokenizer) read from the GGUF file and read from its verified copy. The
    session's ``loaded`` is one of the two (the copy if there was one, else the file, which
    then wrote the copy); the other is read here."""
    if loaded.source == "GGUF file":
        return (loaded.model, loaded.tokenizer), weights_cache.read(loaded.weights.parent)
    assert loaded.source == "verified copy"
    return model.read_gguf(loaded.path), (loaded.model, loaded.tokenizer)


@pytest.mark.model
def test_the_copy_gives_the_model_the_gguf_file_gives(loaded, from_gguf_and_copy):
    (gguf, gguf_tokenizer), (copy, copy_tokenizer) = from_gguf_and_copy
    assert weights_cache.verified(loaded.weights.parent, model.MODEL_SHA256)
    ours, theirs = dict(gguf.named_parameters()), dict(copy.named_parameters())
    assert ours.keys() == theirs.keys()
    for name, p in ours.items():
        assert p.dtype == theirs[name].dtype == torch.float32, name
        assert torch.equal(p, theirs[name]), name
    assert copy.lm_head.weight is copy.model.embed_tokens.weight  # still tied
    for name, b in gguf.named_buffers():
        assert torch.equal(b, dict(copy.named_buffers())[name]), name
    assert gguf.generation_config.to_dict() == copy.generation_config.to_dict()
    text = "What is 12 + 30? Answer with a number.\n<|im_end|> wörld ß"
    assert gguf_tokenizer(text)["input_ids"] == copy_tokenizer(text)["input_ids"]
    turn = [{"role": "user", "content": text}]
    assert gguf_tokenizer.apply_chat_template(
        turn, add_generation_prompt=True
    ) == copy_tokenizer.apply_chat_template(turn, add_generation_prompt=True)
    assert gguf_tokenizer.eos_token_id == copy_tokenizer.eos_token_id
    ids = list(range(0, gguf_tokenizer.vocab_size, 97))
    assert gguf_tokenizer.decode(ids) == copy_tokenizer.decode(ids)


@pytest.mark.model
def test_restoring_from_a_changed_copy_is_refused_in_words(loaded):
    moved = dataclasses.replace(loaded, weights_sha256="0" * 64)
    with pytest.raises(model.ModelFileError, match=r"could not be restored: .*changed on disk"):
        model.restore_shipped(moved)
