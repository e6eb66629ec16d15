"""The practice engine: questions, grading, drills, quizzes and certificates, without Streamlit.

- ``questions``: the records of the bank (Question, Option, Blank, DrillTemplate) and the kinds.
- ``bank``: ``load_bank`` reads and validates ``content/questions.toml``.
- ``answer_text``: how a typed formula or phrase is normalised before it is compared.
- ``grading``: the formula-blank grader and the other ``grade_*`` functions, ``parse_number``.
- ``statistic``: which statistic of which rewards a typed answer names (group, batch, axis).
- ``formula``: a small arithmetic parser in one variable, to tell equal formulas apart safely.
- ``drills``: numeric drills with fresh rewards and a worked solution.
- ``session``: one quiz (``QuizState``), its score, the pass mark, retries.
- ``progress_link``: a quiz as a short, signed URL parameter and back.
- ``certificates``: Ed25519-signed certificate IDs for a passed quiz (and the legacy HMAC check).
- ``class_round``, ``class_group``, ``class_results``, ``class_link``, ``class_qr``: class
  mode (a round graded into rewards, the room as one group, the CSV, the signed lecturer
  link, the join QR code).
- ``store``: class sessions and learner progress, on SQLite or Redis.
- ``review``: spaced review, every question an FSRS card; ``record_attempt`` stores an attempt.
- ``mastery``: recall per topic over time, the weakest topics and the pages that teach them.
- ``anki``: the bank as an Anki deck (``build_deck() -> bytes``).

It imports ``grpo_core`` (the math) and ``content`` (the loader), never streamlit, ``ui`` or
``pages``.
"""
