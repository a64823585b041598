# citekit — developer and demo targets. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test install bench clean model finder-model

$(BIN)/citekit: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

install: $(BIN)/citekit

## demo: install, then build refs/ from the bundled notes with no network, and summarise
demo: install
	$(BIN)/citekit sync --offline
	$(BIN)/citekit tags

## test: install, then run the whole test suite
test: install
	$(BIN)/python -m pytest -q

## bench: speed and accuracy figures (not tests; installs the model extras, whose CSL styles print the held-out reference lists): dedup at scale and on labelled pairs, import speed, resolution under latency, batched arXiv searches, streamed JSON memory, one failing conference site, start-up, notes extraction, extraction on notes written blind, related-work contribution sentences and check, search on a 50k library, an online sync that changes nothing at 7k and 50k (before and after), syncs and daily commands with no network (demo project, 10k entries; before and after), one-entry writes (tag, rename, add) at 7k and 50k against main, keys, re-import, Slack and Notion exports, suggestions on a planted citation graph, Zotero import against Better BibTeX's export tests, the git merge driver, pasted references looked up online (right/wrong/pending and requests per mention, against main)
bench: install
	$(BIN)/python -m pip install --quiet -e '.[model]'
	$(BIN)/python bench/dedup_bench.py
	$(BIN)/python bench/import_bench.py
	$(BIN)/python bench/resolve_latency.py
	$(BIN)/python bench/arxiv_batch_bench.py
	$(BIN)/python bench/json_stream_bench.py
	$(BIN)/python bench/conference_failure_bench.py
	$(BIN)/python bench/add_bench.py
	$(BIN)/python bench/startup_bench.py
	$(BIN)/python bench/extract_bench.py
	$(BIN)/python bench/library_bench.py
	$(BIN)/python bench/nochange_sync_bench.py
	$(BIN)/python bench/offline_daily_bench.py
	$(BIN)/python bench/writes_bench.py
	$(BIN)/python bench/related_paragraphs_bench.py
	$(BIN)/python bench/notes_blind_bench.py
	$(BIN)/python bench/notes_blind_bench.py --blind2
	$(BIN)/python bench/sentences_bench.py
	$(BIN)/python bench/sentences_check_bench.py
	$(BIN)/python bench/related_reader_bench.py
	$(BIN)/python bench/refparse_bench.py
	$(BIN)/python bench/finder_bench.py
	$(BIN)/python bench/upgrade_bench.py
	$(BIN)/python bench/search_bench.py
	$(BIN)/python bench/keys_bench.py
	$(BIN)/python bench/reimport_bench.py
	$(BIN)/python bench/exports_bench.py
	$(BIN)/python bench/suggest_bench.py
	$(BIN)/python bench/zotero_bbt_bench.py
	$(BIN)/python bench/git_merge_bench.py
	$(BIN)/python bench/unsure_reference_bench.py

## model: retrain the reference parser (src/citekit/data/refparse.crfsuite) from ../shared/corpora;
## seeded, so the same corpora give the same model (needs bibtex on PATH for the .bst styles)
model: install
	$(BIN)/python -m pip install --quiet -e '.[model]'
	$(BIN)/python -m citekit.notes.refparse.train.trainer

## finder-model: retrain the learned mention finder (src/citekit/data/finder.crfsuite) with fixed seeds; needs ../shared
## and citeproc-py (the copied reference lists are printed in the CSL styles), takes a minute or two
finder-model: install
	$(BIN)/python -m pip install --quiet -e '.[model]'
	nice -n 10 $(BIN)/python -m citekit.notes.finder.train

clean:
	rm -rf $(VENV) .citekit .pytest_cache .hypothesis bench/out
