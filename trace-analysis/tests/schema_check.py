#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""schema_check.py SCHEMA JSON... - validate documents against a JSON
Schema (python3-jsonschema); prints each violation and exits 1."""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for err in sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))[:10]:
            bad += 1
            print("%s: %s: %s" % (path, "/".join(str(p) for p in err.path), err.message[:300]))
    sys.exit(1 if bad else 0)


main()
