#!/usr/bin/env python3
"""Write the rapidfuzz `fuzz.partial_ratio` test vectors for findbench.

Usage (from anywhere; needs `pip install rapidfuzz`):

    python3 scripts/gen_partial_ratio_vectors.py [--out PATH]

The output is deterministic for a given rapidfuzz version: a fixed seed, no
set iteration, no hashing-dependent order. The first line is a header
{"generator", "rapidfuzz", "count"}; each further line is
{"s1", "s2", "score"} with score = fuzz.partial_ratio(s1, s2) (no processor,
no score_cutoff). engine/tests/partial_ratio_vectors.rs checks every line.
"""

import argparse
import json
import os
import random
import sys
from pathlib import Path

# Score with the C++ core (what users of rapidfuzz get), never the pure-Python
# fallback: rapidfuzz raises at import if the C++ build is unavailable.
os.environ.setdefault("RAPIDFUZZ_IMPLEMENTATION", "cpp")

import rapidfuzz  # noqa: E402
from rapidfuzz import fuzz  # noqa: E402

SEED = 20240611
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "engine" / "tests" / "data" / "partial_ratio_vectors.jsonl"

TITLES = [
    "Read emails",
    "Calendar cleanup",
    "Fix auth middleware timeout",
    "Write quarterly report",
    "Review pull request #482",
    "Book dentist appointment",
    "Renew passport",
    "Pay electricity bill",
    "Call mom",
    "Plan team offsite",
    "Update resume",
    "Read 'Designing Data-Intensive Applications'",
    "Read 'The Pragmatic Programmer'",
    "Read 'Thinking, Fast and Slow'",
    "Finish chapter 3 of Rust book",
    "Refactor search index builder",
    "Migrate CI to new runners",
    "Investigate flaky integration test",
    "Upgrade Postgres to 16",
    "Rotate API keys",
    "Set up monitoring alerts",
    "Write blog post on fuzzy search",
    "Learn Spanish vocabulary",
    "Practice guitar 30 min",
    "Run 5k",
    "Meal prep for the week",
    "Grocery shopping",
    "Clean the garage",
    "Organize photo library",
    "Back up laptop",
    "Schedule 1:1 with Sam",
    "Prepare slides for demo day",
    "Answer support tickets",
    "Triage bug backlog",
    "Fix memory leak in worker",
    "Add pagination to /api/tasks",
    "Document CLI flags",
    "Benchmark partial_ratio",
    "Reduce Docker image size",
    "Water the plants",
    "Buy birthday gift for Alex",
    "File taxes",
    "Cancel unused subscriptions",
    "Review insurance policy",
    "Plan vacation to Lisbon",
    "Read 'Atomic Habits'",
    "Read 'Deep Work'",
    "Read 'Sapiens'",
    "Watch Rust conf talk",
    "Write unit tests for parser",
    "Fix typo in README",
    "Release v1.2.0",
    "Update dependencies",
    "Audit npm packages",
    "Clean up feature flags",
    "Archive old projects",
    "Sort inbox",
    "Reply to recruiter",
    "Weekly review",
    "Monthly budget check",
    "Goal: run a half marathon",
    "Goal: read 24 books this year",
    "Goal: ship the mobile app",
    "Goal: learn to cook Thai food",
    "Fix login redirect loop",
    "Improve onboarding flow",
    "Design settings page",
    "Write migration for tags table",
    "Index tasks by due date",
    "Add keyboard shortcuts",
    "Dark mode support",
    "Accessibility audit",
    "Localize app into German",
    "Fix timezone bug in reminders",
    "Sync calendar with Google",
    "Export tasks to CSV",
    "Import from Todoist",
    "Set up SSO with Okta",
    "Renew TLS certificates",
    "Configure log retention",
    "Deploy staging environment",
    "Rollback failed deploy",
    "Postmortem for outage",
    "Interview frontend candidate",
    "Write job description",
    "Team retrospective",
    "Sprint planning",
    "Groom product backlog",
    "Update roadmap",
    "Customer call with Acme Corp",
    "Send invoice to client",
    "Follow up on proposal",
    "Order new monitor",
    "Fix bike tire",
    "Take car to service",
    "Pick up dry cleaning",
    "Vet appointment for Luna",
    "Dentist at 3pm",
    "Yoga class",
    "Meditate 10 minutes",
    "Journal",
    "Stretch",
    "Drink more water",
    "Call the bank about card",
    "Change wifi password",
    "Print boarding pass",
    "Pack for trip",
    "Check in for flight",
    "Read 'Clean Code'",
    "Read 'Refactoring'",
    "Read 'SICP' chapter 1",
    "Read paper on HNSW",
    "Read 'Attention Is All You Need'",
    "Summarize meeting notes",
    "Draft newsletter",
    "Record podcast episode",
    "Edit video for YouTube",
    "Fix CSS overflow on mobile",
    "Optimize SQL query for reports",
    "Cache user permissions",
    "Remove deprecated endpoints",
    "Add rate limiting",
    "Write ADR for storage engine",
    "Evaluate vector databases",
    "Prototype fuzzy finder",
    "Tune ranking weights",
    "Collect relevance judgments",
    "Label 200 queries",
    "Compare with rapidfuzz",
    "Profile hot loop",
    "Fix off-by-one in tokenizer",
    "Handle emoji in titles",
    "Support CJK search",
    "Unicode normalization",
    "Case-insensitive matching",
    "Café reservation for Friday",
    "Renew library books",
    "Return Amazon package",
    "Repair kitchen faucet",
    "Paint bedroom wall",
    "Assemble IKEA shelf",
    "Declutter closet",
    "Donate old clothes",
    "Plan birthday party",
    "Send thank-you notes",
    "Update LinkedIn profile",
    "Learn Kubernetes basics",
    "Finish Coursera ML course",
    "Practice LeetCode",
    "Write cover letter",
    "Backup phone photos",
    "Replace smoke detector battery",
    "Read emails from Mark",
    "Email cleanup",
    "TODO: fix auth",
]

NON_ASCII = [
    "Réunion d'équipe à 10h",
    "Café crème",
    "naïve façade",
    "Straße reparieren",
    "Überprüfung der Äpfel",
    "Ελληνικά μαθήματα",
    "αβγδεζηθ",
    "ΑΒΓΔ",
    "東京で会議",
    "読書リスト",
    "买牛奶和面包",
    "学习中文",
    "한국어 공부",
    "🙂 daily standup",
    "Ship it 🚀",
    "🎉🎉 party prep 🎂",
    "👨‍👩‍👧 family dinner",
    "Ünïcödé tëst",
    "Ñandú señor",
    "Ключевые задачи",
    "Прочитать книгу",
    "مرحبا بالعالم",
    "שלום עולם",
    "ℕ ⊆ ℤ ⊆ ℚ",
    "e\u0301te\u0301",  # combining accents stay separate code points
]

WORDS = sorted(
    {w.strip("'#:,.()/").lower() for t in TITLES for w in t.split() if len(w.strip("'#:,.()/")) > 1}
)


def typo(rng, s):
    """One random edit (substitution, deletion, insertion or swap)."""
    if not s:
        return rng.choice("abcdefghij")
    i = rng.randrange(len(s))
    op = rng.randrange(4)
    letters = "abcdefghijklmnopqrstuvwxyz"
    if op == 0:
        return s[:i] + rng.choice(letters) + s[i + 1 :]
    if op == 1:
        return s[:i] + s[i + 1 :]
    if op == 2:
        return s[:i] + rng.choice(letters) + s[i:]
    if i + 1 < len(s):
        return s[:i] + s[i + 1] + s[i] + s[i + 2 :]
    return s[::-1]


def random_string(rng, alphabet, lo, hi):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


def query_for(rng, title):
    """A short query a person might type while looking for `title`."""
    kind = rng.randrange(8)
    if kind == 0:  # a substring
        n = rng.randint(2, min(12, len(title)))
        i = rng.randrange(len(title) - n + 1)
        return title[i : i + n]
    if kind == 1:  # a prefix
        return title[: rng.randint(1, min(10, len(title)))]
    if kind == 2:  # a word, lowercased
        return rng.choice(title.split()).lower()
    if kind == 3:  # a word with a typo
        return typo(rng, rng.choice(title.split()).lower())
    if kind == 4:  # two words, lowercased
        words = title.lower().split()
        i = rng.randrange(len(words))
        return " ".join(words[i : i + 2])
    if kind == 5:  # a word from another title
        return rng.choice(WORDS)
    if kind == 6:  # random letters
        return random_string(rng, "abcdefghijklmnopqrstuvwxyz ", 1, 8)
    return typo(rng, typo(rng, title[: rng.randint(3, min(15, len(title)))]))


def pairs(rng):
    out = []

    # Real-looking titles vs short queries, in both argument orders.
    for _ in range(900):
        title = rng.choice(TITLES)
        q = query_for(rng, title)
        out.append((q, title) if rng.random() < 0.8 else (title, q))

    # Random ASCII of varied lengths; small alphabets make partial matches.
    for _ in range(500):
        alphabet = rng.choice(["ab", "abc", "abcd", "abcdefgh", "acgt", "xyz ", "abcdefghijklmnopqrstuvwxyz"])
        s1 = random_string(rng, alphabet, 1, 12)
        s2 = random_string(rng, alphabet, 1, 40)
        out.append((s1, s2))
    printable = "".join(chr(c) for c in range(32, 127))
    for _ in range(150):
        out.append((random_string(rng, printable, 0, 10), random_string(rng, printable, 0, 30)))

    # Needle longer than haystack (first argument is the longer one).
    for _ in range(200):
        alphabet = rng.choice(["abc", "abcdefgh", "abcdefghijklmnopqrstuvwxyz "])
        s2 = random_string(rng, alphabet, 1, 10)
        s1 = random_string(rng, alphabet, len(s2) + 1, len(s2) + 30)
        out.append((s1, s2))

    # Equal lengths: both directions are searched.
    for _ in range(300):
        alphabet = rng.choice(["ab", "abc", "abcd", "abcdefgh", "abcdefghijklmnopqrstuvwxyz"])
        n = rng.randint(1, 20)
        out.append((random_string(rng, alphabet, n, n), random_string(rng, alphabet, n, n)))
    for title in TITLES[:40]:
        out.append((title, typo(rng, title)[: len(title)].ljust(len(title), "x")))
        out.append((title, title[::-1]))

    # Empty strings.
    for s in ["", "a", "abc", "Read emails", "🙂", " "]:
        out.append(("", s))
        out.append((s, ""))

    # Repeated characters.
    for n1 in range(1, 8):
        for n2 in range(1, 10):
            out.append(("a" * n1, "a" * n2 + "b"))
            out.append(("a" * n1, "b" + "a" * n2))
    for _ in range(60):
        ch = rng.choice("ab")
        s1 = ch * rng.randint(1, 6) + rng.choice(["", "b", "ab", "ba"])
        s2 = "".join(rng.choice([ch * rng.randint(1, 4), "b", "c"]) for _ in range(rng.randint(1, 6)))
        out.append((s1, s2))

    # Non-ASCII: accents, Greek, CJK, emoji, mixed scripts.
    for _ in range(300):
        base = rng.choice(NON_ASCII)
        kind = rng.randrange(4)
        if kind == 0:
            n = rng.randint(1, len(base))
            i = rng.randrange(len(base) - n + 1)
            out.append((base[i : i + n], base))
        elif kind == 1:
            out.append((rng.choice(NON_ASCII), rng.choice(NON_ASCII)))
        elif kind == 2:
            out.append((typo(rng, base[: rng.randint(1, len(base))]), base + " " + rng.choice(TITLES)))
        else:
            alphabet = rng.choice(["αβγδ", "東京大阪都", "🙂🚀🎉a", "éeèêë", "aé東🙂"])
            out.append((random_string(rng, alphabet, 1, 8), random_string(rng, alphabet, 1, 25)))

    # Longer than 64 chars: needles of 60..200 chars (the multi-word path),
    # and long haystacks with short needles.
    for _ in range(220):
        alphabet = rng.choice(["abcd", "abcdefgh", "abcdefghijklmnopqrstuvwxyz ", "aé東🙂xy"])
        n1 = rng.choice([63, 64, 65, 66, 70, 100, 128, 129, 150, 200])
        s1 = random_string(rng, alphabet, n1, n1)
        kind = rng.randrange(3)
        if kind == 0:
            s2 = random_string(rng, alphabet, n1, n1 + 80)
        elif kind == 1:  # the needle, edited, inside a longer string
            edited = s1
            for _ in range(rng.randint(0, 6)):
                edited = typo(rng, edited)
            s2 = random_string(rng, alphabet, 0, 30) + edited + random_string(rng, alphabet, 0, 30)
        else:
            s2 = random_string(rng, alphabet, max(1, n1 - 20), n1)  # as long or shorter
        out.append((s1, s2) if rng.random() < 0.5 else (s2, s1))
    for _ in range(60):
        title = rng.choice(TITLES)
        hay = " / ".join(rng.choice(TITLES) for _ in range(4)) + " / " + title
        out.append((query_for(rng, title), hay))

    # Case differences (no processor, so case matters).
    for _ in range(200):
        title = rng.choice(TITLES)
        q = query_for(rng, title)
        variant = rng.choice([q.upper(), q.lower(), q.title(), q.swapcase()])
        out.append((variant, title))

    # Deduplicate, keeping first occurrence order.
    return list(dict.fromkeys(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    rng = random.Random(SEED)
    rows = [{"s1": s1, "s2": s2, "score": fuzz.partial_ratio(s1, s2)} for s1, s2 in pairs(rng)]
    header = {
        "generator": f"scripts/gen_partial_ratio_vectors.py (seed {SEED})",
        "rapidfuzz": rapidfuzz.__version__,
        "count": len(rows),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(header, ensure_ascii=False) + "\n")
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} vectors (rapidfuzz {rapidfuzz.__version__}) to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
