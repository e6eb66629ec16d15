"""What the upload worker's forkserver imports once, so each child starts with it loaded.

First, one thread each for OpenBLAS and Arrow's allocator: a process that forks should have
no other thread, since a lock one of them held at the fork would stay held in the child.
"""

import os

os.environ.update(
    OPENBLAS_NUM_THREADS="1",
    OMP_NUM_THREADS="1",
    MKL_NUM_THREADS="1",
    JE_ARROW_MALLOC_CONF="background_thread:false",  # Arrow's jemalloc starts none
)

import pyarrow.csv
import pyarrow.json
import pyarrow.parquet  # noqa: F401

import grpo_core.rollouts  # noqa: F401
