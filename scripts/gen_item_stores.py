#!/usr/bin/env python3
"""Writes the shipped stores of `find outline`, `get` and `find name`, deterministically:

  corpora/fixtures/outline.json  a project outline: four lists, nested five deep, with notes
                                 and comments (todo.json shape, `parent` links)
  corpora/fixtures/life.json     tasks, goals and a reading list (todo.json shape with
                                 "tasks", "goals" and "reading" arrays), for `find name`

Rerun: python3 scripts/gen_item_stores.py  (no dependencies; same output every time)
"""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "corpora" / "fixtures"

# An outline per list, two spaces per level. `| N: text` adds a note, `| C: text` a comment,
# `| S: status` sets the status (default: pending). Titles are unique within a list.
OUTLINES = {
    ("ENG", "Engineering"): """
Website relaunch | N: Target launch: end of Q3. Owner: platform team. | C: Scope frozen on 2 June
  Backend platform
    Auth service | N: Spec: docs/auth-v2.md. Sessions move from cookies to rotating tokens. | C: Security review booked for week 32
      Token refresh | S: active
        Refresh tokens rotate on every use | N: Reuse of an old refresh token revokes the whole family
        Clock skew tolerance of 30 seconds
        Revoke sessions on password change | S: done
      Login rate limiting | N: 5 attempts per minute per account, 50 per IP
        Lockout email after ten failures
        Captcha after three failures | C: Product wants no captcha on mobile
      Single sign-on with Google | S: blocked | C: Waiting on the Workspace admin
      Two-factor authentication
        TOTP enrolment screen
        Recovery codes | N: Ten codes, each usable once, shown once
        WebAuthn passkeys | S: pending
    Billing
      Stripe webhook handler | N: Verify signatures; handlers must be idempotent
        Retry failed webhooks with backoff
        Dead-letter queue for poison events
      Invoice PDF export | S: active
        Company address block on invoices
        VAT number on EU invoices | C: Legal confirmed the wording
      Proration on plan change
    Search
      Search index rebuild job | N: Nightly at 02:00 UTC; takes 40 minutes on production data
        Incremental indexing of edited pages
        Index size alert at 80 percent of disk
      Typo tolerance in the query parser
      Result snippets with highlighted terms | S: done
  Frontend
    Design system
      Colour tokens | S: done
      Dark mode | N: Respect prefers-color-scheme; a toggle overrides it | C: Marketing wants dark mode in launch screenshots
        Dark mode for charts
        Dark mode for emails
      Accessible focus rings
    Pages
      Pricing page | C: Copy comes from marketing by 1 July
        Annual plan toggle
        FAQ accordion
      Onboarding flow | N: Three steps max; measure drop-off per step
        Workspace name step
        Invite teammates step
          Bulk invite by CSV | N: Max 500 rows; report bad rows, import the rest
          Invite link that expires after 7 days
        Pick a template step
      Settings page
        Notification preferences
        Delete account flow | N: 30-day grace period, then hard delete | C: Needs legal sign-off
    Performance
      Lazy-load images below the fold
      Bundle size budget of 200 KB | S: active
  Infrastructure
    Kubernetes migration | N: Move from the VM fleet; one service per week | C: Ops prefers to start with the worker pool
      Worker pool on Kubernetes | S: active
        Horizontal autoscaling on queue depth
        Graceful shutdown drains jobs
      API on Kubernetes
      Postgres stays on managed instances
    Observability
      Structured logging | S: done
      Tracing with OpenTelemetry
        Trace ids in error pages
      Error budget alerts | N: 99.9 percent monthly; page at 50 percent burn
    Backups
      Nightly database backups | S: done
      Restore drill every quarter | C: Last drill took 3 hours; target is 1
Mobile app
  iOS release 2.0
    Offline mode | N: Queue writes locally; sync when back online
      Conflict resolution on sync | N: Last writer wins per field, not per record
      Offline banner
    Push notifications
      Notification permission prompt timing
  Android release 2.0
    Offline mode on Android
    Material You colours
""",
    ("MKT", "Marketing"): """
Launch campaign | N: Launch day is the Tuesday after the website relaunch | C: Budget approved
  Launch announcement
    Blog post draft | S: active
      Customer quote from Acme | C: Acme approved the quote on 12 May
      Screenshots in dark mode
    Press kit
      Logo files in SVG and PNG
      Founder bios
    Launch email to customers
      Segment by plan
      A/B test subject lines | N: Two variants, 10 percent each, winner after 4 hours
  Social media
    Launch thread
    Short demo video | N: 45 seconds, captions burned in
      Storyboard
      Voice-over script
  Webinar
    Book the webinar platform
    Rehearsal with sales
Content
  Help centre
    Getting started guide
      Import from spreadsheets
      Invite your team
    Billing FAQ | C: Support sees most tickets about proration
  Case studies
    Acme case study | S: done
    Globex case study
      Interview the ops lead
      Metrics before and after
SEO
  Keyword research for pricing pages
  Redirect map for old URLs | N: Every old URL keeps a 301; no chains
""",
    ("OPS", "Operations"): """
Hiring
  Senior backend engineer | N: Remote in Europe; Rust or Go | C: Two offers out
    Job description
    Take-home exercise | N: Four hours max; paid
    Interview loop
      System design interview
      Pairing interview
  Product designer
    Portfolio review rubric
Office and tools
  Laptop refresh
    Order laptops for new starters
  Team offsite | N: Lisbon, 14 to 16 October | C: Book before prices go up in August
    Venue shortlist
    Travel bookings
      Flights for the Berlin team
      Hotel block for 18 people
    Agenda | N: One day strategy, one day hack day
  Password manager rollout | S: active
    Migrate shared vault
    Enforce two-factor for all accounts
Finance
  Quarterly close
    Reconcile Stripe payouts | N: Payouts lag two days behind charges
    Accrue contractor invoices
  Annual budget
    Headcount plan
    Cloud cost forecast | C: Kubernetes migration should cut compute by 20 percent
""",
    ("PRD", "Product"): """
Roadmap Q3
  Team workspaces | N: Most requested feature in the June survey
    Workspace roles
      Admin role
      Guest role with read-only access
    Workspace switcher
  Recurring tasks
    Recurrence rules | N: Daily, weekly, monthly, and every n days
    Skip next occurrence
  Calendar sync
    Google Calendar two-way sync | C: Needs the OAuth scope review first
    Outlook calendar sync | S: blocked
Research
  Customer interviews
    Interview guide
    Synthesis of 12 interviews | N: Top theme: people lose track of sub-tasks
  Usability test of onboarding
  Competitor review | N: Compare on price, sub-tasks, calendar sync and offline use
    Pricing comparison table
    Feature matrix
      Sub-task depth limits in competitors
""",
}


def outline_items():
    items = []
    for (prefix, list_name), text in OUTLINES.items():
        stack = []  # ids by depth
        seen = set()
        for n, raw in enumerate(l for l in text.splitlines() if l.strip()):
            depth = (len(raw) - len(raw.lstrip(" "))) // 2
            parts = [p.strip() for p in raw.strip().split("|")]
            title = parts[0]
            assert title not in seen, title
            seen.add(title)
            item = {"id": f"{prefix}-{n + 1}", "title": title, "list": list_name, "status": "pending"}
            notes, comments = [], []
            for part in parts[1:]:
                kind, _, value = part.partition(":")
                value = value.strip()
                if kind == "N":
                    notes.append(value)
                elif kind == "C":
                    comments.append({"author": "pm" if len(comments) % 2 == 0 else "eng", "text": value})
                elif kind == "S":
                    item["status"] = value
                else:
                    raise ValueError(f"unknown marker {kind!r} in {raw!r}")
            del stack[depth:]
            if stack:
                item["parent"] = stack[-1]
            stack.append(item["id"])
            if notes:
                item["notes"] = notes
            if comments:
                item["comments"] = comments
            items.append(item)
    return items


LIFE_TASKS = [
    ("Read emails", "Not started"),
    ("Reply to the landlord about the boiler", "In progress"),
    ("Calendar cleanup", "Not started"),
    ("Email the accountant the receipts", "Not started"),
    ("Book dentist appointment", "Done"),
    ("Renew passport", "In progress"),
    ("Pay the electricity bill", "Done"),
    ("Buy a birthday present for Sam", "Not started"),
    ("Cancel the gym membership", "Not started"),
    ("Clean out the garage", "Not started"),
    ("Fix the leaking kitchen tap", "In progress"),
    ("Back up the photo library", "Done"),
    ("Call mum", "Not started"),
    ("Submit the expense report", "Not started"),
    ("Update the CV", "In progress"),
    ("Plan the summer holiday", "Not started"),
    ("Sort the email newsletter subscriptions", "Not started"),
    ("Order new running shoes", "Done"),
    ("Water the plants", "Done"),
    ("Prepare slides for Monday standup", "Not started"),
    ("File the tax return", "Not started"),
    ("Schedule car service", "Not started"),
    ("Return the library books", "Done"),
    ("Set up automatic savings transfer", "Not started"),
    ("Write thank-you notes", "Not started"),
    ("Archive old emails from 2021", "Done"),
    ("Review the home insurance renewal", "Not started"),
    ("Recycle the old laptop", "Not started"),
    ("Meal plan for next week", "In progress"),
    ("Check the calendar invites for the offsite", "Not started"),
]
LIFE_GOALS = [
    ("Run a half marathon", "Active"),
    ("Read 24 books this year", "Active"),
    ("Learn conversational Spanish", "Active"),
    ("Save an emergency fund of three months", "Complete"),
    ("Ship the side project", "Not started"),
    ("Get promoted to senior engineer", "Active"),
    ("Sleep eight hours a night", "Active"),
    ("Visit Japan", "Not started"),
    ("Pay off the car loan", "Complete"),
    ("Meditate every morning", "Active"),
    ("Cook one new recipe every week", "Complete"),
    ("Declutter the flat", "Active"),
]
LIFE_READING = [
    ("Designing Data-Intensive Applications", "Reading"),
    ("The Pragmatic Programmer", "Read"),
    ("Thinking, Fast and Slow", "To read"),
    ("Atomic Habits", "Read"),
    ("The Mythical Man-Month", "To read"),
    ("Deep Work", "Reading"),
    ("A Philosophy of Software Design", "To read"),
    ("Crafting Interpreters", "Reading"),
    ("The Design of Everyday Things", "Read"),
    ("Staff Engineer", "To read"),
    ("Sapiens", "Read"),
    ("Project Hail Mary", "To read"),
    ("The Manager's Path", "To read"),
    ("Structure and Interpretation of Computer Programs", "To read"),
    ("Cien años de soledad", "To read"),
    ("Straße der Ölsardinen", "To read"),
]


def life_store():
    def entries(prefix, rows, extra):
        out = []
        for n, (title, status) in enumerate(rows, 1):
            item = {"id": f"{prefix}{n}", "title": title, "status": status}
            item.update(extra(n))
            out.append(item)
        return out

    return {
        "version": "2.3.0",
        "project": {"name": "life-admin-sample"},
        "tasks": entries("T", LIFE_TASKS, lambda n: {"priority": ["high", "medium", "low"][n % 3]}),
        "goals": entries("G", LIFE_GOALS, lambda n: {"labels": [["health", "career", "money", "learning"][n % 4]]}),
        "reading": entries("R", LIFE_READING, lambda n: {}),
    }


def write(path, value):
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def main():
    FIXTURES.mkdir(parents=True, exist_ok=True)
    outline = outline_items()
    write(FIXTURES / "outline.json", {"version": "2.3.0", "project": {"name": "relaunch-outline"}, "tasks": outline})
    write(FIXTURES / "life.json", life_store())


if __name__ == "__main__":
    main()
