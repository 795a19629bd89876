"""Parse TM1 records (`TM1 {json}`) out of any text stream: a pipe, a console log, a UART capture.

A record is the marker `TM1 ` followed by one JSON object on the same line; anything before the
marker is noise. Lines without a marker count as junk, lines whose JSON does not parse (or is not
an object with a string "t") as malformed; neither stops the parse.
"""
import json
import re

_MARK = re.compile(r"TM1 (\{.*)")
_decoder = json.JSONDecoder()


class Parser:
    """Incremental parser: feed() text chunks (or whole lines), get complete records back."""

    def __init__(self):
        self.junk = 0
        self.malformed = 0
        self.records = 0
        self._partial = ""

    def feed_line(self, line):
        """One line of text (with or without its newline) -> a record dict, or None."""
        m = _MARK.search(line)
        if not m:
            if line.strip():
                self.junk += 1
            return None
        try:
            obj, _end = _decoder.raw_decode(m.group(1).rstrip())
        except ValueError:
            self.malformed += 1
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
            self.malformed += 1
            return None
        self.records += 1
        return obj

    def feed(self, data):
        """A chunk of text, possibly ending in the middle of a line -> list of complete records."""
        data = self._partial + data
        lines = data.split("\n")
        self._partial = lines.pop()
        return [r for r in map(self.feed_line, lines) if r is not None]

    def close(self):
        """End of stream: parse a last line that had no newline (a cut-off stream)."""
        rest, self._partial = self._partial, ""
        rec = self.feed_line(rest) if rest else None
        return [rec] if rec is not None else []


def parse_text(text):
    """All records of a complete text; returns (records, parser) so the counts can be read."""
    p = Parser()
    recs = p.feed(text)
    recs += p.close()
    return recs, p

