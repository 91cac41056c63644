#!/usr/bin/env python3
"""Checks schemas/events against what the domain really writes. Run by tools/check-schemas.

  check_schemas.py --schemas schemas/events --samples SAMPLES.jsonl [--fixture LOG.jsonl]

SAMPLES.jsonl holds the lines of domain-event-samples: {"type", "schemaVersion", "payload"}.
Fails (exit 1, one line per problem) when a schema file is not a valid draft 2020-12 schema or a $ref
does not resolve, when a sample does not validate or its type has no schema, when a schema has no
sample (except the old shapes in UNSAMPLED), when a v1 line of the fixture log does not validate, or
when a schema accepts a sample broken on purpose (a required field dropped, an unknown field added, a
value out of range, of the wrong form or of the wrong type).
"""
import argparse
import copy
import json
import pathlib
import re
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable

BASE = "https://episodic.example/schemas/events/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
DEFINITIONS = "definitions.schema.json"
FILE_NAME = re.compile(r"^([A-Z][A-Za-z0-9]*)\.v([1-9][0-9]*)\.schema\.json$")

# Old shapes that this build reads but never writes: no sample can exist; the fixture log checks them.
UNSAMPLED = {("EpisodeCreated", 1)}

# The optional stored properties of the Swift types (the rest are required), stated here a second time
# so that the negative checks can tell a required field from an optional one without trusting the schema.
ROOT_OPTIONAL = {
    "PodcastCreated": {"description"},
    "PodcastDescribed": {"description"},
    "EpisodeCreated": {"description", "publishDate", "overlay"},
    "EpisodeDescribed": {"description"},
    "EpisodePublishDateChanged": {"publishDate"},
    "ThumbnailTextChanged": {"text"},
}
NESTED_OPTIONAL = {
    "BlobRef": set(),
    "ImageRef": set(),
    "SubtitlesRef": set(),
    "ThumbnailSettings": {"fontName"},
    "ThumbnailInputs": {"overlay"},
    "RenderedThumbnail": set(),
    "Podcast": {"description", "artwork", "defaultOverlay"},
    "Episode": {"description", "publishDate", "thumbnailText", "transcript", "subtitles", "background", "overlay",
                "thumbnail"},
}


def nested_kind(value):
    """Which Swift type a nested object of a payload is, from its keys."""
    keys = set(value)
    if "sha256" in keys:
        return "BlobRef"
    if "cueCount" in keys:
        return "SubtitlesRef"
    if "fontSize" in keys:
        return "ThumbnailSettings"
    if "inputs" in keys:
        return "RenderedThumbnail"
    if "settings" in keys and "text" in keys:
        return "ThumbnailInputs"
    if "id" in keys and "name" in keys:
        return "Podcast"
    if "id" in keys and "title" in keys:
        return "Episode"
    if "blob" in keys:
        return "ImageRef"
    return None


# Field name -> (limit, one line only) for free text.
TEXT_FIELDS = {"name": (200, True), "title": (200, True), "fontName": (200, True), "description": (5000, False),
               "text": (100, True), "thumbnailText": (100, True)}
# Field name -> (a value above the maximum or None, must be an integer). Every number is at least 0.
NUMBER_FIELDS = {
    "fontSize": (201, False), "textPositionX": (1.01, False), "textPositionY": (1.01, False),
    "horizontalPadding": (200.5, False), "verticalPadding": (200.5, False),
    "canvasWidth": (8193, True), "canvasHeight": (8193, True), "width": (16385, True), "height": (16385, True),
    "number": (2147483648, True), "episodeNumber": (2147483648, True), "cueCount": (None, True), "bytes": (None, True),
}
ID_FIELDS = {"id", "podcastID", "episodeID"}
TIME_FIELDS = {"createdAt", "publishDate"}
COLOUR_FIELDS = {"fontColorHex", "outlineColorHex"}
ENUM_FIELDS = {"format", "backgroundScaling"}

problems = []


def problem(message):
    if message in problems:
        return
    problems.append(message)
    print(f"check-schemas: {message}", file=sys.stderr)


def unresolvable(error):
    """A short form of a referencing error (its default text holds the whole schema)."""
    return f"{getattr(error, 'ref', '?')!r} does not resolve ({type(getattr(error, '_wrapped', error)).__name__})"


def pointer(path):
    return "/" + "/".join(str(p) for p in path) if path else "(the payload itself)"


# MARK: Schemas


def load_schemas(folder):
    """Returns ({(type, version): (file name, schema)}, [all schemas]) after checking each file."""
    events, everything = {}, []
    files = sorted(folder.glob("*.json"))
    if not any(path.name == DEFINITIONS for path in files):
        problem(f"{folder}/{DEFINITIONS} is missing")
    if not files:
        problem(f"{folder}: no schema files")
    for path in files:
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            problem(f"{path}: not JSON: {error}")
            continue
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            problem(f"{path}: not a valid draft 2020-12 schema: {error.message} at {pointer(list(error.absolute_path))}")
            continue
        if schema.get("$schema") != DRAFT:
            problem(f'{path}: "$schema" must be "{DRAFT}"')
        if schema.get("$id") != BASE + path.name:
            problem(f'{path}: "$id" must be "{BASE + path.name}", found {schema.get("$id")!r}')
        for key in ("title", "description"):
            if not isinstance(schema.get(key), str) or not schema[key].strip():
                problem(f'{path}: needs a "{key}"')
        for where, sub in objects_without_closed_properties(schema):
            problem(f"{path}: the object schema at {where} does not say additionalProperties: false")
        everything.append((path, schema))
        if path.name == DEFINITIONS:
            continue
        match = FILE_NAME.match(path.name)
        if not match:
            problem(f"{path}: an event schema must be named <Type>.v<N>.schema.json")
            continue
        if schema.get("type") != "object" or schema.get("additionalProperties") is not False:
            problem(f"{path}: an event schema must be an object with additionalProperties: false")
        events[(match[1], int(match[2]))] = (path.name, schema)
    return events, everything


def objects_without_closed_properties(node, where="#"):
    """Object schemas (those with properties) that leave additional properties open."""
    if isinstance(node, dict):
        if "properties" in node and node.get("type") == "object" and node.get("additionalProperties") is not False:
            yield where, node
        for key, value in node.items():
            yield from objects_without_closed_properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from objects_without_closed_properties(value, f"{where}/{index}")


def references(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def make_registry(everything):
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for _, schema in everything if isinstance(schema.get("$id"), str))
    for path, schema in everything:
        resolver = registry.resolver(base_uri=schema.get("$id", ""))
        for ref in sorted(set(references(schema))):
            try:
                resolver.lookup(ref)
            except Unresolvable as error:
                problem(f"{path}: $ref {unresolvable(error)}")
    return registry


# MARK: Validation


def errors_of(validator, instance):
    """(where, message) for each way `instance` fails the schema; a schema that cannot be applied (a $ref
    to nowhere) is one such message."""
    try:
        errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    except Unresolvable as error:
        return [("(the schema)", f"cannot be applied: $ref {unresolvable(error)}")]
    return [(pointer(list(error.absolute_path)), error.message) for error in errors]


def read_samples(path):
    samples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            sample = json.loads(line)
        except json.JSONDecodeError as error:
            problem(f"sample line {number} is not JSON: {error}: {line[:120]}")
            continue
        if (not isinstance(sample, dict) or set(sample) != {"type", "schemaVersion", "payload"}
                or not isinstance(sample["type"], str) or not isinstance(sample["schemaVersion"], int)):
            problem(f'sample line {number} is not {{"type", "schemaVersion", "payload"}}: {line[:120]}')
            continue
        samples.append((number, sample["type"], sample["schemaVersion"], sample["payload"]))
    return samples


def validate_samples(samples, events, validators):
    sampled = set()
    for number, type_, version, payload in samples:
        key = (type_, version)
        if key not in events:
            problem(f"sample {number}: {type_} version {version} has no schema "
                    f"(expected schemas/events/{type_}.v{version}.schema.json)")
            continue
        sampled.add(key)
        for where, message in errors_of(validators[key], payload):
            problem(f"sample {number} ({type_} v{version}) does not match {events[key][0]}: at {where}: {message}")
    for key in sorted(events):
        if key not in sampled and key not in UNSAMPLED:
            problem(f"{events[key][0]} has no sample: domain-event-samples printed no {key[0]} of version {key[1]}")
    return sampled


def validate_fixture(path, events, validators):
    """Validates each line's `data` against the schema of its type and `schema` version."""
    checked, subjects = 0, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            problem(f"{path}:{number}: not JSON: {error}")
            continue
        key = (record.get("type"), record.get("schema"))
        if "data" not in record:
            problem(f"{path}:{number}: a log line without data")
            continue
        if key not in events:
            if key in UNSAMPLED:
                problem(f"{path}:{number}: {key[0]} version {key[1]} has no schema")
            else:
                print(f"note: {path}:{number}: no schema for {key[0]} version {key[1]}; line not checked")
            continue
        for where, message in errors_of(validators[key], record["data"]):
            problem(f"{path}:{number} ({key[0]} v{key[1]}) does not match {events[key][0]}: at {where}: {message}")
        checked += 1
        if key in UNSAMPLED:
            subjects.append((f"{path.name}:{number}", key, record["data"]))
    return checked, subjects


# MARK: Negative checks: broken samples must be rejected


def walk(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from walk(child, path + (key,))


def replaced(instance, path, new):
    broken = copy.deepcopy(instance)
    target = broken
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return broken


def without(instance, path):
    broken = copy.deepcopy(instance)
    target = broken
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return broken


def broken_versions(type_, schema, payload):
    """(what was broken, the broken payload): each one invalid for a payload of `type_`."""
    yield "an unknown field at the top", {**payload, "unexpectedField": True}
    for key in schema.get("required", []):
        if key in payload:
            yield f"without the required {key}", without(payload, (key,))
    for key in payload:
        if key not in ROOT_OPTIONAL.get(type_, set()) and key not in schema.get("required", []):
            problem(f"{type_}: the schema does not require {key}, which the Swift type does not declare optional "
                    f"(if it is optional, add it to ROOT_OPTIONAL in tools/check_schemas.py)")
    for path, value in walk(payload):
        if not path:
            continue
        key = path[-1]
        if isinstance(value, dict):
            yield f"an unknown field in {pointer(path)}", replaced(payload, path, {**value, "unexpectedField": 1})
            yield f"{pointer(path)} as an array", replaced(payload, path, [value])
            kind = nested_kind(value)
            if kind is None:
                problem(f"{type_}: cannot tell which type the object at {pointer(path)} is; teach nested_kind")
                continue
            for field in value:
                if field not in NESTED_OPTIONAL[kind]:
                    yield f"{pointer(path)} without its required {field}", without(payload, path + (field,))
            if kind == "RenderedThumbnail":
                other = "jpeg" if value.get("format") == "png" else "png"
                yield f"{pointer(path)} in {other}", replaced(payload, path + ("format",), other)
            continue
        if isinstance(value, bool):
            yield f"{pointer(path)} as a string", replaced(payload, path, str(value).lower())
            continue
        if isinstance(value, (int, float)):
            yield f"{pointer(path)} as a string", replaced(payload, path, str(value))
            yield f"{pointer(path)} = -1", replaced(payload, path, -1)
            above, integer = NUMBER_FIELDS.get(key, (None, False))
            if above is not None:
                yield f"{pointer(path)} = {above}", replaced(payload, path, above)
            if integer:
                yield f"{pointer(path)} = 1.5", replaced(payload, path, 1.5)
            if key in ("width", "height") and len(path) >= 2 and path[-2] == "image":
                yield f"{pointer(path)} = 1025 on a stored thumbnail", replaced(payload, path, 1025)
            continue
        if not isinstance(value, str):
            continue
        yield f"{pointer(path)} as a number", replaced(payload, path, 7)
        yield f"{pointer(path)} with a line feed after it", replaced(payload, path, value + "\n")
        if key in ID_FIELDS:
            yield f"{pointer(path)} with an uppercase digit", replaced(payload, path, "A" + value[1:])
            yield f"{pointer(path)} with a non-hex letter", replaced(payload, path, "g" + value[1:])
            yield f"{pointer(path)} without dashes", replaced(payload, path, value.replace("-", ""))
        elif key == "sha256":
            yield f"{pointer(path)} with an uppercase digit", replaced(payload, path, "A" + value[1:])
            yield f"{pointer(path)} with a non-hex letter", replaced(payload, path, "g" + value[1:])
            yield f"{pointer(path)} one digit short", replaced(payload, path, value[:-1])
        elif key in TIME_FIELDS:
            yield f"{pointer(path)} without milliseconds", replaced(payload, path, value[:19] + "Z")
            yield f"{pointer(path)} with an offset", replaced(payload, path, value[:23] + "+00:00")
            yield f"{pointer(path)} in 1969", replaced(payload, path, "1969" + value[4:])
            yield f"{pointer(path)} in month 13", replaced(payload, path, value[:5] + "13" + value[7:])
        elif key in COLOUR_FIELDS:
            yield f"{pointer(path)} as #RGB", replaced(payload, path, "#FFF")
            yield f"{pointer(path)} in lowercase", replaced(payload, path, "#abcdef")
            yield f"{pointer(path)} without #", replaced(payload, path, value[1:] + "0")
        elif key in ENUM_FIELDS:
            yield f"{pointer(path)} = gif", replaced(payload, path, "gif")
        elif key in TEXT_FIELDS:
            limit, one_line = TEXT_FIELDS[key]
            yield f"{pointer(path)} empty", replaced(payload, path, "")
            yield f"{pointer(path)} of {limit + 1} characters", replaced(payload, path, "x" * (limit + 1))
            yield f"{pointer(path)} with a leading space", replaced(payload, path, " " + value)
            yield f"{pointer(path)} with a trailing no-break space", replaced(payload, path, value + "\u00a0")
            if one_line:
                yield f"{pointer(path)} on two lines", replaced(payload, path, "a\nb")
                yield f"{pointer(path)} on two lines (U+2028)", replaced(payload, path, "a\u2028b")
        else:
            problem(f"{type_}: no negative checks for the string field at {pointer(path)}; teach broken_versions")


def negative_checks(subjects, events, validators):
    """Every broken version of every subject must be rejected; returns how many were tried."""
    tried = 0
    for where, key, payload in subjects:
        file_name, schema = events[key]
        for what, broken in broken_versions(key[0], schema, payload):
            if broken == payload:
                problem(f"the negative check {what!r} left {where} unchanged; make it break something")
                continue
            tried += 1
            try:
                accepted = validators[key].is_valid(broken)
            except Unresolvable as error:
                problem(f"{file_name} cannot be applied: $ref {unresolvable(error)}")
                break
            if accepted:
                problem(f"{file_name} accepts a broken {key[0]} ({where}): {what}")
    return tried


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schemas", type=pathlib.Path, required=True)
    parser.add_argument("--samples", type=pathlib.Path, required=True)
    parser.add_argument("--fixture", type=pathlib.Path)
    arguments = parser.parse_args()

    events, everything = load_schemas(arguments.schemas)
    registry = make_registry(everything)
    validators = {key: Draft202012Validator(schema, registry=registry) for key, (_, schema) in events.items()}

    samples = read_samples(arguments.samples)
    if not samples:
        problem(f"{arguments.samples}: no samples")
    validate_samples(samples, events, validators)

    fixture_lines, fixture_subjects = 0, []
    if arguments.fixture and arguments.fixture.exists():
        fixture_lines, fixture_subjects = validate_fixture(arguments.fixture, events, validators)

    subjects = [(f"sample {n}", (t, v), p) for n, t, v, p in samples if (t, v) in events] + fixture_subjects
    broken = negative_checks(subjects, events, validators)

    if problems:
        print(f"schemas: {len(problems)} problem{'s' if len(problems) != 1 else ''} (listed above)")
        return 1
    types = len({t for _, t, _, _ in samples})
    fixture = f"; {fixture_lines} fixture lines valid" if arguments.fixture and arguments.fixture.exists() else ""
    print(f"schemas: {len(samples)} samples of {types} types valid against {len(events)} schemas{fixture}; "
          f"{broken} broken samples all rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
