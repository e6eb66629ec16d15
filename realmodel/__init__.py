"""A real language model's group: the glue between SmolLM2-135M-Instruct and grpo_core.

Infrastructure, not math: loading (with a hash check), sampling, token log-probabilities
and one optimizer step in torch. The math of the step is ``grpo_core.loss``, transcribed to
torch in ``realmodel.torch_loss`` and tested equal to it. torch, transformers and gguf are
an optional extra (requirements-model.txt): nothing here imports them at module level, and
``model.available()`` says whether they are installed.
"""
