"""A tiny tool-calling causal LM made here, offline: a byte-level BPE tokenizer trained on
the task's own prompt, the Qwen 2.5 chat template TRL ships (so TRL parses its tool calls),
and a 2-layer Qwen2 model with random weights, warmed up for a few steps on two answers
(one right, one wrong) so that sampling it calls the environment's tool either way."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
from trl.chat_template_utils import qwen2_5_chat_template

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def tool_call_text(name: str, arguments: dict[str, Any]) -> str:
    """The completion a Qwen 2.5 template expects for one tool call."""
    import json

    body = json.dumps({"name": name, "arguments": arguments})
    return f"<tool_call>\n{body}\n</tool_call><|im_end|>"


def make_tokenizer(corpus: Sequence[str]) -> PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer trained on ``corpus``, with the Qwen 2.5 chat template."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=1024,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer)
    tok.add_tokens(["<tool_call>", "</tool_call>"])
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.chat_template = qwen2_5_chat_template
    fast.padding_side = "left"
    return fast


def make_model(vocab_size: int, eos_id: int, pad_id: int) -> Qwen2ForCausalLM:
    """A 2-layer Qwen2 with random weights."""
    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=vocab_size,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        eos_token_id=eos_id,
        pad_token_id=pad_id,
    )
    return Qwen2ForCausalLM(config)


def warm_up(
    model: Qwen2ForCausalLM,
    tokenizer: PreTrainedTokenizerFast,
    prompt_text: str,
    completions: Sequence[str],
    *,
    steps: int = 80,
) -> None:
    """A few supervised steps so that ``prompt_text`` is continued by one of ``completions``."""
    prompt_ids = tokenizer(prompt_text, add_special_tokens=False)["input_ids"]
    batch = []
    for c in completions:
        ids = prompt_ids + tokenizer(c, add_special_tokens=False)["input_ids"]
        labels = [-100] * len(prompt_ids) + ids[len(prompt_ids) :]
        batch.append((ids, labels))
    width = max(len(i) for i, _ in batch)
    pad = tokenizer.pad_token_id
    input_ids = torch.tensor([i + [pad] * (width - len(i)) for i, _ in batch])
    labels = torch.tensor([lab + [-100] * (width - len(lab)) for _, lab in batch])
    attention = torch.tensor([[1] * len(i) + [0] * (width - len(i)) for i, _ in batch])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(steps):
        loss = model(input_ids=input_ids, attention_mask=attention, labels=labels).loss
        loss.backward()
        opt.step()
        opt.zero_grad()


def render_prompt(
    tokenizer: PreTrainedTokenizerFast,
    prompt: list[dict[str, Any]],
    tools: list[Callable[..., Any]],
    chat_template: str | None = None,
) -> str:
    """The prompt as TRL renders it for generation (``chat_template``: the trainer's own,
    when it replaced the tokenizer's with a training template)."""
    return tokenizer.apply_chat_template(
        prompt,
        tools=tools,
        chat_template=chat_template,
        add_generation_prompt=True,
        tokenize=False,
    )
