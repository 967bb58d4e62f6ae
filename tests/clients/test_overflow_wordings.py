"""Context-overflow answers of model servers: recognised, with the figures they state."""

from __future__ import annotations

import pytest

from mcpgym_clients.adapters.outcomes import (
    OverflowFigures,
    is_context_overflow,
    overflow_figures,
)
from mcpgym_clients.errors import ModelAPIError


def _error(status: int, body: str) -> ModelAPIError:
    return ModelAPIError(f"model API answered {status}", status=status, body=body)


@pytest.mark.parametrize(
    ("status", "body", "figures"),
    [
        pytest.param(
            422,
            '{"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be '
            '<= 4096. Given: 4745 `inputs` tokens and 512 `max_new_tokens`",'
            '"error_type":"validation"}',
            OverflowFigures(4745, 512, 4096),
            id="TGI",
        ),
        pytest.param(
            400,
            '{"error":{"message":"Input validation error: `inputs` tokens + `max_new_tokens` '
            'must be <= 4097."}}',
            OverflowFigures(None, None, 4097),
            id="TGI-based service without the figures given",
        ),
        pytest.param(
            422,
            '{"error":"Input validation error: `inputs` must have less than 4096 tokens. '
            'Given: 4745","error_type":"validation"}',
            OverflowFigures(4745, None, 4096),
            id="TGI inputs alone",
        ),
        pytest.param(
            400,
            '{"error":{"message":"The decoder prompt (length 4745) is longer than the maximum '
            "model length of 4096. Make sure that `max_model_len` is no smaller than the "
            'number of text tokens.","type":"BadRequestError","code":400}}',
            OverflowFigures(4745, None, 4096),
            id="vLLM 0.10+",
        ),
        pytest.param(
            400,
            '{"error":"prompt too long; exceeded max context length by 649 tokens"}',
            OverflowFigures(),
            id="Ollama",
        ),
        pytest.param(
            400,
            '{"error":"Trying to keep the first 4745 tokens when context the overflows. '
            "However, the model is loaded with context length of only 4096 tokens, which is "
            'not enough."}',
            OverflowFigures(4745, None, 4096),
            id="LM Studio",
        ),
        pytest.param(
            400,
            '{"error":"Prompt length 4745 exceeds the maximum context length 4096"}',
            OverflowFigures(4745, None, 4096),
            id="MLX-LM",
        ),
        pytest.param(
            400,
            '{"object":"error","message":"Prompt contains 4745 tokens and 512 draft tokens, '
            'too large for model with 4096 maximum context length"}',
            OverflowFigures(4745, 512, 4096),
            id="Mistral API",
        ),
        pytest.param(
            500,
            '{"error":{"message":"Requested tokens (4745) exceed context window of 4096",'
            '"type":"internal_server_error","param":null,"code":null}}',
            OverflowFigures(4745, None, 4096),
            id="llama-cpp-python raw ValueError (500)",
        ),
        pytest.param(
            400,
            '{"detail":"Requested tokens (4745) exceed context window of 4096"}',
            OverflowFigures(4745, None, 4096),
            id="llama-cpp-python raw ValueError (400)",
        ),
    ],
)
def test_server_overflow_wordings_are_read_with_their_figures(
    status: int, body: str, figures: OverflowFigures
) -> None:
    exc = _error(status, body)
    assert is_context_overflow(exc)
    assert overflow_figures(exc) == figures


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (422, '{"error":"Input validation error: `temperature` must be strictly positive"}'),
        (400, '{"error":"invalid tool schema: parameters must be an object"}'),
        (500, '{"error":"prompt too long; exceeded max context length by 649 tokens"}'),
        (500, '{"error":{"message":"llama_decode returned -1 (context window full?)"}}'),
        (503, '{"error":{"message":"Requested tokens exceed context window"}}'),
    ],
)
def test_other_answers_are_not_overflows(status: int, body: str) -> None:
    assert not is_context_overflow(_error(status, body))
