"""FLOPs per token and per training run, and the time a run takes at a given MFU.

Forward per token ≈ 2·N + 2·L·s·a·d_h (Kaplan et al. 2020: a multiply-add per parameter, plus
QKᵀ and A·V over a causal context of s/2 on average); training ≈ 3× forward; a run of D tokens
≈ 6·N·D (Chinchilla, whose compute-optimal D ≈ 20·N). MoE counts the active parameters. LoRA
skips the base weights' gradients: 4·N + 6·A. Sliding-window layers attend min(s, window).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paramtally.core.gpus import GPU, find_gpu
from paramtally.core.memory import effective_architecture
from paramtally.core.params import count_parameters
from paramtally.core.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.stages import model_layout, window_layers
from paramtally.core.terms import term

__all__ = ["FlopsReport", "FlopsTerm", "estimate_flops"]

KAPLAN = "Kaplan et al. 2020, Table 1: 2N + 2·n_layer·n_ctx·d_attn per token forward"
CHINCHILLA = "Hoffmann et al. 2022 (Chinchilla): C ≈ 6·N·D, compute-optimal D ≈ 20·N"


@dataclass(frozen=True, slots=True)
class FlopsTerm:
    name: str
    flops: int
    formula: str
    source: str


@dataclass(frozen=True, slots=True)
class FlopsReport:
    params: int  # N: active parameters per token
    forward_per_token: int
    training_per_token: int
    tokens: int  # D
    chinchilla_tokens: int
    six_nd: int
    run_flops: int  # training_per_token · D
    gpu: str
    gpus: int
    mfu: float
    peak_flops: float  # per GPU, FLOP/s
    seconds: float  # run_flops / (gpus · peak · mfu)
    terms: tuple[FlopsTerm, ...]

    @property
    def days(self) -> float:
        return self.seconds / 86_400


def _flops_term(name: str, expr: str, source: str, **values: int) -> FlopsTerm:
    t = term(name, "", expr, source, **values)
    return FlopsTerm(t.name, t.bytes, t.formula, t.source)


def _attention(arch: Architecture, s: int) -> FlopsTerm:
    att = arch.attention
    window = window_layers(arch)
    full = arch.num_layers - window
    if att.kind == "mla":
        width, dims = (
            "a·(d_qk + d_v)/2",
            {"d_qk": att.qk_nope_head_dim + att.qk_rope_head_dim, "d_v": att.v_head_dim},
        )
    else:
        width, dims = "a·d_h", {"d_h": arch.head_dim}
    parts = []
    if full:
        parts.append(f"2·L·s·{width}")
    if window:
        parts.append(f"2·L_w·min(s, w)·{width}")
    return _flops_term(
        "attention per token (forward)",
        " + ".join(parts),
        KAPLAN + "; sliding-window layers attend min(s, window)",
        L=full,
        L_w=window,
        w=att.sliding_window or 0,
        s=s,
        a=att.num_heads,
        **dims,
    )


def estimate_flops(
    arch: Architecture, scenario: Scenario, catalog: tuple[GPU, ...] | None = None
) -> FlopsReport:
    """FLOPs per token and for the run; raises a ValidationError on an unknown ``gpu``."""
    gpu = find_gpu(scenario.gpu, catalog)
    return _estimate(arch, scenario, gpu)


@lru_cache(maxsize=128)
def _estimate(arch: Architecture, s: Scenario, gpu: GPU) -> FlopsReport:
    arch = effective_architecture(arch, s)
    report = count_parameters(arch)
    adapters = model_layout(arch, 1).adapters if s.mode == "training" else 0
    n = report.active
    attention = _attention(arch, s.context)
    forward = _flops_term(
        "forward per token", "2·N + F_att", KAPLAN + "; N = active parameters", N=n, F_att=attention.flops
    )
    if adapters:
        training = _flops_term(
            "training per token (adapters only)",
            "4·N_base + 6·A + 3·F_att",
            "forward and input gradients through the frozen base (4N), full 6A for the adapters",
            N_base=max(n - adapters, 0),
            A=min(adapters, n),
            F_att=attention.flops,
        )
    else:
        training = _flops_term(
            "training per token",
            "3·(2·N + F_att)",
            "backward ≈ 2× forward; " + KAPLAN,
            N=n,
            F_att=attention.flops,
        )
    chinchilla = _flops_term("Chinchilla-optimal tokens", "20·N", CHINCHILLA + "; MoE: active N", N=n)
    tokens = s.tokens if s.tokens is not None else chinchilla.flops
    six_nd = _flops_term("run (6·N·D)", "6·N·D", CHINCHILLA, N=n, D=tokens)
    run = _flops_term(
        "run with attention", "C_tok·D", "training per token × tokens", C_tok=training.flops, D=tokens
    )
    peak = gpu.bf16_tflops * 1e12
    seconds = run.flops / (s.gpus * peak * s.mfu)
    return FlopsReport(
        params=n,
        forward_per_token=forward.flops,
        training_per_token=training.flops,
        tokens=tokens,
        chinchilla_tokens=chinchilla.flops,
        six_nd=six_nd.flops,
        run_flops=run.flops,
        gpu=gpu.id,
        gpus=s.gpus,
        mfu=s.mfu,
        peak_flops=peak,
        seconds=seconds,
        terms=(attention, forward, training, chinchilla, six_nd, run),
    )
