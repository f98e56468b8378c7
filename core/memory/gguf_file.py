"""A GGUF file's size: its tensors in their llama.cpp types, and the metadata, mostly the tokenizer.

The metadata is an estimate from the vocabulary alone (the architecture holds no tokenizer).
``convert_hf_to_gguf.py`` (ggml-org/llama.cpp) writes the vocabulary as GGUF arrays
(ggml's docs/gguf.md: a string is its uint64 length and its UTF-8 bytes):

- ``tokenizer.ggml.tokens``: V strings, 8 + L bytes each, L the token's length — about 7 bytes on
  average, an assumption (a byte-level BPE token, GPT-2's 'Ġ' prefix 2 bytes, SentencePiece's '▁' 3);
- ``tokenizer.ggml.token_type``: V int32, 4 each;
- a SentencePiece vocabulary (Llama-2, Mistral v0.1, Gemma, T5): ``tokenizer.ggml.scores``, V
  float32, 4 each; a BPE vocabulary: ``tokenizer.ggml.merges``, M strings of two pieces that make a
  token and a space, 8 + L + 1 bytes each — M as published for the vocabularies known here
  (Llama 3's 280,147 for 128,256 tokens, GPT-2's 50,000), else one per token.

Left out: the other keys (chat template, hyper-parameters: a few kB), the tensor index (name,
shape, type and offset, some 60 bytes a tensor) and the 32-byte alignment of the data. None of
it is on the GPU: llama.cpp keeps the vocabulary in host memory.
"""

from __future__ import annotations

from paramtally.core.families import tokenizer
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term

__all__ = ["TOKEN_BYTES", "gguf_file_terms", "metadata_term", "sentencepiece"]

TOKEN_BYTES = 7  # average bytes of a token's text: an assumption, stated in the term
# Merges of the BPE vocabularies known here, by vocabulary size (their tokenizer.json 'merges').
KNOWN_MERGES = {128_256: 280_147, 50_257: 50_000}
SOURCE = (
    "an estimate from the vocabulary (convert_hf_to_gguf.py's tokenizer arrays; ggml docs/gguf.md: a "
    "string is its uint64 length and its bytes): V tokens of about L = 7 bytes each with their length "
    "and int32 type"
)


def sentencepiece(arch: Architecture) -> bool:
    """Whether ``arch``'s vocabulary is taken for SentencePiece's (scores) rather than BPE's (merges),
    as its family's module says (Llama's and Mistral's only at the 32k of Llama-2 and Mistral v0.1)."""
    kind = tokenizer(arch.family)
    small = arch.embeddings.vocab_size <= 32_768
    return kind == "sentencepiece" or (kind == "sentencepiece_at_32k" and small)


def metadata_term(arch: Architecture) -> Term:
    """The GGUF metadata's bytes, estimated from the vocabulary."""
    vocab = arch.embeddings.vocab_size + arch.added_vocab
    name = "GGUF metadata (tokenizer, estimate)"
    if sentencepiece(arch):
        said = SOURCE + ", and a float32 score each (a SentencePiece vocabulary)"
        return Term.of(name, "file", "V·(8 + L + 4 + 4)", said, V=vocab, L=TOKEN_BYTES)
    merges = KNOWN_MERGES.get(arch.embeddings.vocab_size, vocab)
    known = " (as published for this vocabulary)" if arch.embeddings.vocab_size in KNOWN_MERGES else (
        " (one per token: an assumption)"
    )  # fmt: skip
    said = SOURCE + f", and M merges{known}, each two pieces of a token and a space with its length (BPE)"
    return Term.of(name, "file", "V·(8 + L + 4) + M·(8 + L + 1)", said, V=vocab, L=TOKEN_BYTES, M=merges)


def gguf_file_terms(arch: Architecture, tensors: int) -> tuple[Term, Term, Term]:
    """The file's tensor data (``tensors``: the whole model's weights in their GGUF types), its
    metadata (an estimate) and their sum."""
    data = Term.of(
        "GGUF tensor data", "file", "W", "the whole model's weights in llama.cpp's type per tensor", W=tensors
    )
    metadata = metadata_term(arch)
    total = Term.of(
        "GGUF file (estimate)", "file", "W + D", "tensor data and metadata; the tensor index, other keys "
        "and alignment left out (tens of kB)", W=data.value, D=metadata.value,
    )  # fmt: skip
    return data, metadata, total
