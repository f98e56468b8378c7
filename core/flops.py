"""FLOPs per token and per training run, and the time a run takes at a given MFU.

Forward per token ≈ 2·N + 2·L·s·a·d_h (Kaplan et al. 2020: a multiply-add per parameter, plus
QKᵀ and A·V over a causal context of s/2 on average); training ≈ 3× forward; a run of D tokens
≈ 6·N·D (Chinchilla, whose compute-optimal D ≈ 20·N). MoE counts the active parameters. LoRA
skips the base weights' gradients: 4·N + 6·A. Sliding-window layers attend min(s, window).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paramtally.core.count import count_parameters
from paramtally.core.gpus import GPU, find_gpu
from paramtally.core.memory import effective_architecture
from paramtally.core.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.stages import model_layout
from paramtally.core.terms import Term

__all__ = ["FlopsReport", "estimate_flops", "forward_per_token"]

KAPLAN = "Kaplan et al. 2020, Table 1: 2N + 2·n_layer·n_ctx·d_attn per token forward"
CHINCHILLA = "Hoffmann et al. 2022 (Chinchilla): C ≈ 6·N·D, compute-optimal D ≈ 20·N"


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
    terms: tuple[Term, ...]

    @property
    def days(self) -> float:
        return self.seconds / 86_400


def _flops_term(name: str, expr: str, source: str, **values: int) -> Term:
    return Term.of(name, "flops", expr, source, **values)


def _context_terms(arch: Architecture, s: int) -> Term:
    """Attention over the context and recurrent scans, per token, forward, summed over the layers."""
    h = arch.hidden_size
    attend: dict[tuple[int, int | None], int] = {}  # (d_attn, window) -> layers
    scan = 0
    for block, layers in arch.layers_by_block().items():
        ctx = block.context(h)
        for mixer in (block.mixer, block.parallel_mixer):
            if mixer is None:
                continue
            width = mixer.context_width(ctx)
            if width:
                window = getattr(mixer, "sliding_window", None)
                attend[(width, window)] = attend.get((width, window), 0) + layers
            scan += layers * mixer.scan_flops(ctx)
    parts: list[str] = []
    values: dict[str, int] = {"s": s}
    for i, ((width, window), layers) in enumerate(sorted(attend.items(), key=lambda kv: kv[0][1] or 0)):
        tag = "" if len(attend) == 1 else f"_{i + 1}"
        tokens = "s" if window is None else f"min(s, w{tag})"
        parts.append(f"2·L{tag}·{tokens}·d{tag}")
        values |= {f"L{tag}": layers, f"d{tag}": width} | ({} if window is None else {f"w{tag}": window})
    if scan:
        parts.append("F_scan")
        values["F_scan"] = scan
    return _flops_term(
        "attention per token (forward)",
        " + ".join(parts) or "0",
        KAPLAN + " with d = a·d_h; sliding-window layers attend min(s, window); recurrent layers add "
        "their scan (F_scan)",
        **values,
    )


def estimate_flops(
    arch: Architecture, scenario: Scenario, catalog: tuple[GPU, ...] | None = None
) -> FlopsReport:
    """FLOPs per token and for the run; raises a ValidationError on an unknown ``gpu``."""
    gpu = find_gpu(scenario.gpu, catalog)
    return _estimate(arch, scenario, gpu)


def _forward_terms(arch: Architecture, context: int) -> tuple[Term, Term]:
    """(attention per token, forward per token) at ``context`` for the architecture as run."""
    attention = _context_terms(arch, context)
    n = count_parameters(arch).active
    forward = _flops_term(
        "forward per token", "2·N + F_att", KAPLAN + "; N = active parameters", N=n, F_att=attention.value
    )
    return attention, forward


@lru_cache(maxsize=256)
def forward_per_token(arch: Architecture, context: int) -> int:
    """Forward FLOPs of one token at ``context`` for ``arch`` as run (``effective_architecture``):
    the report's own term, for the serving estimates."""
    return _forward_terms(arch, context)[1].value


@lru_cache(maxsize=128)
def _estimate(arch: Architecture, s: Scenario, gpu: GPU) -> FlopsReport:
    arch = effective_architecture(arch, s)
    report = count_parameters(arch)
    adapters = model_layout(arch, 1).adapters if s.mode == "training" else 0
    n = report.active
    attention, forward = _forward_terms(arch, s.context)
    if adapters:
        training = _flops_term(
            "training per token (adapters only)",
            "4·N_base + 6·A + 3·F_att",
            "forward and input gradients through the frozen base (4N), full 6A for the adapters",
            N_base=max(n - adapters, 0),
            A=min(adapters, n),
            F_att=attention.value,
        )
    else:
        training = _flops_term(
            "training per token",
            "3·(2·N + F_att)",
            "backward ≈ 2× forward; " + KAPLAN,
            N=n,
            F_att=attention.value,
        )
    chinchilla = _flops_term("Chinchilla-optimal tokens", "20·N", CHINCHILLA + "; MoE: active N", N=n)
    tokens = s.tokens if s.tokens is not None else chinchilla.value
    six_nd = _flops_term("run (6·N·D)", "6·N·D", CHINCHILLA, N=n, D=tokens)
    run = _flops_term(
        "run with attention", "C_tok·D", "training per token × tokens", C_tok=training.value, D=tokens
    )
    peak = gpu.bf16_tflops * 1e12
    seconds = run.value / (s.gpus * peak * s.mfu)
    return FlopsReport(
        params=n,
        forward_per_token=forward.value,
        training_per_token=training.value,
        tokens=tokens,
        chinchilla_tokens=chinchilla.value,
        six_nd=six_nd.value,
        run_flops=run.value,
        gpu=gpu.id,
        gpus=s.gpus,
        mfu=s.mfu,
        peak_flops=peak,
        seconds=seconds,
        terms=(attention, forward, training, chinchilla, six_nd, run),
    )
