#!/usr/bin/env python3
"""Writes corpora/fixtures/todo.json: 352 realistic tasks (the size of the task-find spec's
project) plus an archive, deterministically. Rerun: python3 scripts/gen_todo_store.py"""
import json
import random
from pathlib import Path

rng = random.Random(376)

# Hand-written tasks first: these carry notes, phases and labels the corpora query directly.
HAND = [
    ("Implement fuzzy find command for LLM agents", "Add a find command that searches titles and descriptions with relevance scoring so agents stop calling list.", "core", ["cli", "agents"], ["Spec in docs/FIND.md", "Budget: 1000 tasks under 100ms"]),
    ("Fix authentication middleware timeout", "Requests behind the auth middleware time out after 30s when the token cache is cold.", "polish", ["bug", "security"], ["Seen on staging only"]),
    ("Add user registration flow", "Email and password sign-up with verification link.", "core", ["backend", "auth"], []),
    ("Write user registration tests", "Cover duplicate emails, weak passwords and expired verification links.", "testing", ["tests", "auth"], []),
    ("Refactor session cache eviction", "Replace the LRU with a TTL-aware cache so stale sessions expire.", "core", ["backend", "perf"], ["Benchmark before and after"]),
    ("Document the archive command", "Explain how archived tasks are stored and restored.", "polish", ["docs"], []),
    ("Migrate todo.json schema to v2.3", "Add phase and labels fields; keep v2.2 readable.", "setup", ["schema"], ["Write a migration test for every field"]),
    ("Investigate slow list command on large projects", "list --format json takes 2s on 350 tasks.", "maintenance", ["perf"], []),
    ("Add JSON envelope to every read command", "Every read command prints $schema, _meta and success.", "core", ["cli", "agents"], []),
    ("Support TTY-aware format resolution", "Text on a terminal, JSON when piped.", "core", ["cli"], []),
    ("Calendar cleanup before quarter planning", "Remove recurring meetings nobody attends.", None, ["admin"], []),
    ("Read emails from the billing provider", "Check the invoices and forward receipts.", None, ["admin"], []),
    ("Set up continuous integration", "Run tests and shellcheck on every push.", "setup", ["infra"], ["Cache the bats install"]),
    ("Add exit code constants", "EXIT_SUCCESS, EXIT_INVALID_INPUT and EXIT_NO_DATA in one file.", "setup", ["cli"], []),
    ("Design dependency resolution for blocked tasks", "A task blocked by another is unblocked when that one is done.", "core", ["graph"], ["Detect cycles"]),
    ("Deduplicate tasks before add", "Warn when a task with the same title exists.", "core", ["agents"], []),
    ("Rate limiter for the sync endpoint", "Limit to 10 requests per second per token.", "core", ["backend", "security"], []),
    ("Password reset emails are sent twice", "The retry job re-sends after a successful send.", "polish", ["bug", "email"], []),
    ("Dark mode for the dashboard", "Respect prefers-color-scheme.", "polish", ["frontend", "ux"], []),
    ("Export tasks to CSV", "Include id, title, status, priority, labels.", "core", ["export"], []),
    ("Straße address normalisation in importer", "German addresses with ß must match SS in search.", "polish", ["i18n"], []),
    ("Résumé parser accents", "Names with accents lose characters on import.", "polish", ["i18n", "bug"], []),
    ("Webhook retries with exponential backoff", "Retry failed webhooks 5 times, doubling the delay.", "core", ["backend"], []),
    ("Audit log for admin actions", "Record who changed what and when.", "core", ["security"], []),
    ("Onboarding checklist for new contributors", "Link the setup guide, the style guide and the first issues.", "polish", ["docs"], []),
]

AREAS = {
    "auth": ["login form", "OAuth callback", "token refresh", "session cookie", "two-factor prompt", "auth middleware"],
    "billing": ["invoice export", "Stripe webhook", "tax calculation", "refund flow", "pricing page"],
    "search": ["search index", "query parser", "ranking weights", "typo tolerance", "result snippets"],
    "sync": ["calendar sync", "conflict resolution", "offline queue", "sync endpoint", "delta encoding"],
    "cli": ["argument parser", "help output", "exit codes", "shell completion", "progress bar"],
    "infra": ["backup job", "deploy script", "log rotation", "metrics exporter", "TLS certificates"],
    "ui": ["settings page", "task list view", "keyboard shortcuts", "empty states", "drag and drop"],
    "data": ["schema migration", "CSV importer", "JSON validator", "archive format", "index rebuild"],
    "notifications": ["email digest", "push notifications", "notification queue", "reminder scheduler"],
}
VERBS = ["Fix", "Add", "Refactor", "Document", "Test", "Remove", "Optimise", "Investigate", "Review", "Harden", "Simplify", "Migrate"]
TAILS = ["", "", "", " on mobile", " under load", " for large projects", " after upgrade", " edge cases", " regression", " in v2", " for admins", " timeout"]
WHY = [
    "Users reported it in the last release.",
    "Blocks the next milestone.",
    "Found during the security review.",
    "Needed before the public beta.",
    "Slow on projects with more than 300 tasks.",
    "Agents call this path on every turn.",
    "Flaky in CI about once a week.",
]
STATUS = ["pending"] * 5 + ["active"] * 2 + ["blocked"] + ["done"] * 2
PRIORITY = ["critical"] + ["high"] * 3 + ["medium"] * 4 + ["low"] * 2
PHASES = ["setup", "core", "testing", "polish", "maintenance"]

tasks = []
seen = set()
for i, (title, desc, phase, labels, notes) in enumerate(HAND, start=1):
    t = {"id": f"T{i:03d}", "title": title, "description": desc, "status": rng.choice(STATUS),
         "priority": rng.choice(PRIORITY), "labels": labels}
    if phase:
        t["phase"] = phase
    if notes:
        t["notes"] = notes
    t["createdAt"] = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z"
    tasks.append(t)
    seen.add(title.lower())

while len(tasks) < 352:
    area = rng.choice(sorted(AREAS))
    thing = rng.choice(AREAS[area])
    title = f"{rng.choice(VERBS)} {thing}{rng.choice(TAILS)}"
    if title.lower() in seen:
        continue
    seen.add(title.lower())
    n = len(tasks) + 1
    t = {"id": f"T{n:03d}", "title": title,
         "description": f"{rng.choice(WHY)} Area: {area}; touches the {rng.choice(AREAS[area])}.",
         "status": rng.choice(STATUS), "priority": rng.choice(PRIORITY),
         "phase": rng.choice(PHASES), "labels": sorted({area, rng.choice(["backend", "frontend", "docs", "tests", "perf", "bug"])}),
         "createdAt": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z"}
    if rng.random() < 0.2:
        t["notes"] = [f"Check the {rng.choice(AREAS[area])} first", "Pair with the owner of " + area]
    if rng.random() < 0.15:
        t["depends"] = [f"T{rng.randint(1, n - 1):03d}"]
    tasks.append(t)

archive = [
    {"id": "T900", "title": "Prototype find command in bash", "description": "First spike of fuzzy search; superseded by T001.", "status": "done", "priority": "medium", "labels": ["cli"]},
    {"id": "T901", "title": "Old registration form", "description": "Replaced by the new user registration flow.", "status": "done", "priority": "low", "labels": ["auth"]},
    {"id": "T902", "title": "Legacy session cache", "description": "Removed in the cache refactor.", "status": "done", "priority": "low", "labels": ["backend"]},
]

out = {"version": "2.3.0", "project": {"name": "claude-todo-sample"}, "tasks": tasks, "archive": archive}
path = Path(__file__).resolve().parent.parent / "corpora" / "fixtures" / "todo.json"
path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
print(f"wrote {path} ({len(tasks)} tasks, {len(archive)} archived)")
