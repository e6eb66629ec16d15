"""A verified local copy of the dequantised model, so that only the first load reads the GGUF.

Reading the GGUF file takes about 20 s on a quiet 2-core machine (measured: transformers
parses the file's metadata three times, for the tokenizer, the config and the weights, then
``gguf`` dequantises every tensor); the same model written in transformers' own format
(safetensors weights, config.json, tokenizer.json) reads in about 2 s. So the first load
writes that copy to .cache/realmodel/ (git-ignored; GRPO_MODEL_CACHE moves it), and later
loads, in any process, read it.

Honest and safe:
- the copy is keyed by the GGUF file's sha256 (checked on every load before anything is
  read, copy or not) and by the versions of transformers, gguf and torch that made it;
- its manifest, written last, holds each file's sha256; every file is checked against it
  before the copy is read, and a copy that fails any check is ignored and made again;
- it is written into a temporary folder beside its place and renamed into it, under a lock:
  no reader sees half a copy, and two processes never build it at once (the second waits,
  then reads the first one's copy);
- tests/realmodel/test_weights_cache.py checks that the model read from the copy equals the
  one read from the GGUF, weight for weight, and tokenizes the same.

The copy's weights file is also how the few-steps curve puts the shipped weights back into
the model after its steps (``read_weights_into``), against the sha256 kept at load.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

ROOT_ENV = "GRPO_MODEL_CACHE"
DEFAULT_ROOT = Path(__file__).resolve().parents[1] / ".cache" / "realmodel"
WEIGHTS = "model.safetensors"
MANIFEST = "manifest.json"
LIBRARIES = ("transformers", "gguf", "torch")
"""The libraries whose versions key the copy: they read, dequantise and hold the weights."""


class CacheError(RuntimeError):
    """A copy's file is missing or differs from what was written."""


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def versions() -> dict[str, str]:
    """Each of ``LIBRARIES``' installed version, "absent" where it is not installed (without
    the model extra: a copy is then never read, but the cache's checks still run)."""
    return {name: _version(name) for name in LIBRARIES}


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def usable_root(root: Path | None = None) -> Path:
    """``root``, else GRPO_MODEL_CACHE, else .cache/realmodel in the project, made if
    missing; where it cannot be made (a read-only install), a temporary folder of this
    process's own, removed when it exits."""
    root = Path(root or os.environ.get(ROOT_ENV) or DEFAULT_ROOT)
    try:
        root.mkdir(parents=True, exist_ok=True)
        if os.access(root, os.W_OK):
            return root
    except OSError:
        pass
    own = Path(tempfile.mkdtemp(prefix="grpo-model-"))
    atexit.register(shutil.rmtree, own, ignore_errors=True)
    return own


def folder(root: Path, gguf_sha256: str) -> Path:
    """The copy's folder for this GGUF file and these library versions."""
    tag = "-".join(f"{name}{v}" for name, v in versions().items())
    return root / f"{gguf_sha256[:16]}-{tag}"


@contextlib.contextmanager
def locked(place: Path):
    """Hold ``place``'s lock (one builder or reader at a time, across processes)."""
    with open(place.parent / f"{place.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def verified(place: Path, gguf_sha256: str) -> str | None:
    """The copy's weights sha256 if its manifest names this GGUF file and these versions
    and every file it lists has its sha256; else None (no copy, or a bad one)."""
    try:
        manifest = json.loads((place / MANIFEST).read_text(encoding="utf-8"))
        if manifest["gguf_sha256"] != gguf_sha256 or manifest["versions"] != versions():
            return None
        files = manifest["files"]
        if WEIGHTS not in files:
            return None
        for name, sha in files.items():
            if file_sha256(place / name) != sha:
                return None
        return files[WEIGHTS]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write(place: Path, model, tokenizer, gguf_sha256: str) -> str:
    """Write the copy of ``model`` (float32 weights, config) and ``tokenizer`` made from the
    GGUF file with ``gguf_sha256``; returns the weights' sha256."""
    from safetensors.torch import save_model

    building = Path(tempfile.mkdtemp(prefix=f".{place.name}-", dir=place.parent))
    try:
        save_model(model, str(building / WEIGHTS))  # tied weights once
        config = model.config.to_dict()
        config.pop("quantization_config", None)  # the copy holds plain float32 weights
        (building / "config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
        tokenizer.save_pretrained(building)
        building.chmod(0o755)  # mkdtemp made it private; the copy is no secret
        for p in building.iterdir():
            p.chmod(0o644)
        files = {p.name: file_sha256(p) for p in sorted(building.iterdir())}
        manifest = {"gguf_sha256": gguf_sha256, "versions": versions(), "files": files}
        (building / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        shutil.rmtree(place, ignore_errors=True)  # a bad copy, if any
        building.rename(place)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return files[WEIGHTS]


def read(place: Path):
    """(model, tokenizer) from a verified copy: float32, CPU, eval mode.

    The weights are read into the process's own memory (``disable_mmap``), not mapped from
    the file: the model then depends on nothing on disk after its check, and no later change
    to the file could reach it."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(place)
    model = AutoModelForCausalLM.from_pretrained(place, dtype=torch.float32, disable_mmap=True)
    return model.eval(), tokenizer


def read_weights_into(model, weights: Path, sha256: str) -> None:
    """Copy the weights file into ``model``'s own parameters, in place, after checking the
    file still has ``sha256``; CacheError (and the model unchanged) if not."""
    import torch
    from safetensors import safe_open

    try:
        actual = file_sha256(weights)
    except OSError as error:
        raise CacheError(f"The shipped weights' copy cannot be read: {error}") from error
    if actual != sha256:
        raise CacheError("The shipped weights' copy changed on disk since the model loaded.")
    own = model.state_dict(keep_vars=True)
    with safe_open(str(weights), framework="pt") as stored, torch.no_grad():
        names = list(stored.keys())
        covered = {own[n].data_ptr() for n in names if n in own}
        missing = [n for n, p in model.named_parameters() if p.data_ptr() not in covered]
        if missing or not set(names) <= set(own):
            raise CacheError("The shipped weights' copy does not fit the model.")
        for name in names:  # one tensor at a time: no second whole copy in memory
            own[name].copy_(stored.get_tensor(name))
