#!/usr/bin/env bash
# serve20.sh (a copy of round19sys/serve19.sh) NCTX PORT LOG [extra args] -- llama-cpp-python server for the 1.5B model, raised priority
N=$1; P=$2; L=$3; shift 3
exec nice -n -10 /work/wt/cache/srvvenv/bin/python -m llama_cpp.server \
  --model /work/wt/cache/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf --model_alias qwen \
  --host 127.0.0.1 --port "$P" --n_ctx "$N" --n_threads 2 --n_threads_batch 2 --logits_all False "$@" > "$L" 2>&1
