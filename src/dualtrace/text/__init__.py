"""Language analysis that the write and read paths share: dates, entities and aliases,
lexical segmentation and stems, the sentence splitter, token counting (EN and ZH)."""
