"""Context-overflow answers of model servers: recognised, with the figures they state."""

from __future__ import annotations

import pytest

from mcpgym_clients.adapters.outcomes import (
    OverflowFigures,
    error_signature,
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
        # Recorded wire formats, each from the server's source or a quoted answer:
        pytest.param(
            400,
            '{"error":{"message":"Prompt length 4745 exceeds the available context size of '
            '4096 tokens","type":"invalid_request_error","param":null,'
            '"code":"context_length_exceeded"}}',
            OverflowFigures(4745, None, 4096),
            id="TabbyAPI (common/errors.py, 2026-06 on)",
        ),
        pytest.param(
            400,
            '{"detail":"Prompt length 4745 is greater than max_seq_len 4096"}',
            OverflowFigures(4745, None, 4096),
            id="TabbyAPI (HTTPException 400, 2026-06-13 to 06-15)",
        ),
        pytest.param(
            400,
            '{"error":{"message":"Initial job allocation requires 6793 cache tokens, which '
            'exceeds the available context size of 4096 tokens","type":"invalid_request_error",'
            '"param":null,"code":"context_length_exceeded"}}',
            OverflowFigures(6793, None, 4096),
            id="TabbyAPI ExLlamaV3 allocation (prompt plus the cap)",
        ),
        pytest.param(
            400,
            '{"error":{"code":400,"message":"request (4745 tokens) exceeds the available '
            'context size (4096 tokens), try increasing it","type":"exceed_context_size_error"}}',
            OverflowFigures(4745, None, 4096),
            id="llama.cpp server message alone (Jan relays it)",
        ),
        pytest.param(
            400,
            '{"error":{"code":400,"message":"input (4745 tokens) is larger than the max '
            'context size (4096 tokens). skipping","type":"exceed_context_size_error"}}',
            OverflowFigures(4745, None, 4096),
            id="llama.cpp server, a prompt it cannot split",
        ),
        pytest.param(
            500,
            '{"error":{"code":500,"message":"Context size has been exceeded.",'
            '"type":"server_error"}}',
            OverflowFigures(),
            id="llama.cpp server, filled while generating (500)",
        ),
        pytest.param(
            400,
            '{"error":"Context size has been exceeded."}',
            OverflowFigures(),
            id="LM Studio forwarding llama.cpp's (400)",
        ),
        pytest.param(
            400,
            '{"error":{"message":"This endpoint\'s maximum context length is 131072 tokens. '
            "However, you requested about 139521 tokens (138021 of text input, 1500 in the "
            'output). Please reduce the length of either one, or use the \\"middle-out\\" '
            'transform to compress your prompt automatically.","code":400}}',
            OverflowFigures(138021, 1500, 131072),
            id="OpenRouter",
        ),
        pytest.param(
            400,
            '{"error":{"message":"This endpoint\'s maximum context length is 256000 tokens. '
            "However, you requested about 424983 tokens (358454 of text input, 56529 of tool "
            'input, 10000 in the output).","code":400}}',
            OverflowFigures(414983, 10000, 256000),
            id="OpenRouter with tool input",
        ),
        pytest.param(
            413,
            '{"error":{"message":"This model\'s maximum context length is 4096 tokens. '
            "However, your request has 4745 input tokens. Please reduce the length of the "
            'input messages.","type":"PayloadTooLarge","param":"input_tokens","code":413}}',
            OverflowFigures(4745, None, 4096),
            id="vLLM as a 413 (vllm-project/vllm#34363)",
        ),
        pytest.param(
            400,
            '{"error":"Input prompt (4745 tokens) is too long and exceeds limit of 4096"}',
            OverflowFigures(4745, None, 4096),
            id="vLLM scheduler text raised as an error",
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
        # TabbyAPI before 2026-06: the overflow only in its console, a generic 503 here
        (
            503,
            '{"detail":"Chat completion 52c1a4f4badd475c8067daab9971af49 aborted. Maybe the '
            'model was unloaded? Please check the server console."}',
        ),
    ],
)
def test_other_answers_are_not_overflows(status: int, body: str) -> None:
    assert not is_context_overflow(_error(status, body))


@pytest.mark.parametrize(
    ("figures", "said"),
    [
        (
            OverflowFigures(4745, None, 4096),
            "4,745 prompt tokens vs a context window of 4,096 tokens",
        ),
        (
            OverflowFigures(None, None, 4096),
            "a prompt of unknown size vs a context window of 4,096 tokens",
        ),
        (OverflowFigures(), "a prompt of unknown size (the server stated no figures)"),
    ],
)
def test_the_figures_are_said_in_words_whatever_is_known(
    figures: OverflowFigures, said: str
) -> None:
    assert figures.describe() == said


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param(
            "Internal Server Error (request id 0b7e1c52-8f7a-4d3e-9a41-3c2f7e8d9b10)",
            "Internal Server Error (request id 5f0c2a9e-1b4d-4c8a-8e27-9d6b3a1f4c22)",
            id="UUID",
        ),
        pytest.param(
            "Chat completion 52c1a4f4badd475c8067daab9971af49 aborted.",
            "Chat completion 96b5accf70144d28907c306816d5513e aborted.",
            id="TabbyAPI hex id",
        ),
        pytest.param(
            "upstream failed for chatcmpl-c7fb9a0fcba844e996ceca2878cc0f92",
            "upstream failed for chatcmpl-573665c74ccb4f4090b71560fddb0860",
            id="prefixed id",
        ),
        pytest.param(
            "engine error at 2026-12-06T09:21:23.512Z (ts 1765012883)",
            "engine error at 2026-12-06T09:21:24.007Z (ts 1765012884)",
            id="timestamps",
        ),
    ],
)
def test_per_request_ids_and_times_do_not_make_two_failures_differ(first: str, second: str) -> None:
    assert error_signature(500, first) == error_signature(500, second)


@pytest.mark.parametrize(
    ("first", "second", "status"),
    [
        ("template failed to render tools", "template failed to render tool message", 500),
        ("failed at step 3 of 12", "failed at step 4 of 12", 500),
        ("max_tokens must be at least 1", "max_tokens must be at least 1", 503),
    ],
)
def test_failures_that_differ_in_what_they_say_stay_apart(
    first: str, second: str, status: int
) -> None:
    assert error_signature(500, first) != error_signature(status, second)
