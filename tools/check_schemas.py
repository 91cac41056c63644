#!/usr/bin/env python3
"""Checks schemas/events against what the domain really writes, and schemas/commands against what
`episodic submit` reads. Run by tools/check-schemas.

  check_schemas.py --schemas schemas/events --samples SAMPLES.jsonl [--fixture LOG.jsonl ...]
                   [--commands schemas/commands] [--examples EXAMPLES.jsonl]

SAMPLES.jsonl holds the lines of domain-event-samples: {"type", "schemaVersion", "payload"}.
Fails (exit 1, one line per problem) when a schema file is not a valid draft 2020-12 schema or a $ref
does not resolve, when a sample does not validate or its type has no schema, when a schema has no
sample (except the old shapes in UNSAMPLED), when a v1 line of the fixture log does not validate, when
a schema accepts a sample broken on purpose (a required field dropped, an unknown field added, a value
out of range, of the wrong form or of the wrong type, text holding a control character), or when it
refuses a description with line breaks, which the domain takes.

It checks schemas/commands, the lines `episodic submit` reads, the same way: that each schema has the
fields, required and optional, of the parser's commands is the job of
Tests/EpisodicTests/CommandSchemaShapeTests.swift, which compares them both ways; here every line
of schemas/commands/examples.jsonl must validate, the lines together must show every command, every
field, every null allowed and every thumbnail setting, and lines broken on purpose (a field missing,
unknown or of the wrong type, a value out of range, a bad UUID or time, a transcript given twice, a
setting other than fontName as null, text holding a control character) must be refused, while odd lines the domain takes (text between
spaces, a lowercase colour, null for a required field that clears) must not be.
That the parser takes every example is Tests/EpisodicCLITests/CommandSchemaExamplesTests.swift's job.
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

ROOT = pathlib.Path(__file__).resolve().parent.parent
BASE = "https://episodic.example/schemas/events/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
DEFINITIONS = "definitions.schema.json"
FILE_NAME = re.compile(r"^([A-Z][A-Za-z0-9]*)\.v([1-9][0-9]*)\.schema\.json$")

# Old shapes that this build reads but never writes: no sample can exist; the fixture log checks them.
UNSAMPLED = {("EpisodeCreated", 1), ("TranscriptImported", 1), ("TranscriptReplaced", 1), ("EpisodeRestored", 1),
             # Thumbnail settings before text fit and the overlay's placement.
             ("PodcastCreated", 1), ("PodcastThumbnailDefaultsChanged", 1), ("PodcastRestored", 1), ("EpisodeCreated", 2),
             ("ThumbnailSettingsChanged", 1), ("ThumbnailRendered", 1), ("EpisodeRestored", 2),
             # Podcasts before the default background.
             ("EpisodeCreated", 3), ("PodcastRestored", 2),
             # Thumbnail text before it was a choice of number, title or words.
             ("EpisodeCreated", 4), ("PodcastRestored", 3), ("EpisodeRestored", 3), ("ThumbnailTextChanged", 1)}

# The optional stored properties of the Swift types (the rest are required), stated here a second time
# so that the negative checks can tell a required field from an optional one without trusting the schema.
ROOT_OPTIONAL = {
    "PodcastCreated": {"description"},
    "PodcastDescribed": {"description"},
    "EpisodeCreated": {"description", "publishDate", "overlay", "background"},
    "EpisodeDescribed": {"description"},
    "EpisodePublishDateChanged": {"publishDate"},
    "ThumbnailTextChanged": {"text"},
    "LossAccepted": {"lostFrom", "lostThrough", "altered", "recordedHash"},
}
NESTED_OPTIONAL = {
    "BlobRef": set(),
    "ImageRef": set(),
    "SubtitlesRef": set(),
    "ThumbnailSettings": {"fontName"},
    "ThumbnailInputs": {"overlay"},
    "ThumbnailTextChoice": set(),
    "RenderedThumbnail": {"inputsDigest"},
    "Podcast": {"description", "artwork", "defaultOverlay", "defaultBackground"},
    # thumbnailText: optional before EpisodeRestored version 4, which requires it.
    "Episode": {"description", "publishDate", "thumbnailText", "transcript", "subtitles", "background", "overlay",
                "thumbnail"},
}


def nested_kind(value):
    """Which Swift type a nested object of a payload is, from its keys."""
    keys = set(value)
    if "kind" in keys and keys <= {"kind", "text"}:
        return "ThumbnailTextChoice"
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
               "text": (100, False), "thumbnailText": (100, False)}
# Field name -> (a value above the maximum or None, must be an integer). Every number is at least 0.
NUMBER_FIELDS = {
    "fontSize": (201, False), "textPositionX": (1.01, False), "textPositionY": (1.01, False),
    "horizontalPadding": (200.5, False), "verticalPadding": (200.5, False),
    "overlayScale": (10.5, False), "overlayPositionX": (1.01, False), "overlayPositionY": (1.01, False),
    "drawnFontSize": (201, False),
    "canvasWidth": (8193, True), "canvasHeight": (8193, True), "width": (16385, True), "height": (16385, True),
    "number": (2147483648, True), "episodeNumber": (2147483648, True), "cueCount": (None, True), "bytes": (None, True),
}
ID_FIELDS = {"id", "podcastID", "episodeID"}
TIME_FIELDS = {"createdAt", "publishDate"}
COLOUR_FIELDS = {"fontColorHex", "outlineColorHex"}
ENUM_FIELDS = {"format", "backgroundScaling", "textFit", "overlayPlacement", "kind"}
# Control characters (C0, DEL, C1) no text field holds, stated here a second time as ControlCharacter.swift
# gives them: each one is put inside a text, where trimming cannot remove it. A description may hold LF and
# CR, and no other.
CONTROLS = {
    "NUL": "\x00", "BEL": "\x07", "TAB": "\t", "VT": "\x0b", "FF": "\x0c", "ESC": "\x1b", "US": "\x1f", "DEL": "\x7f",
    "PAD": "\x80", "NEL": "\x85", "CSI": "\x9b", "APC": "\x9f", "an OSC sequence": "\x1b]0;owned\x07",
}

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


def load_folder(folder, base):
    """[(path, schema)] for every schema file of `folder`, after the checks every schema gets: valid
    draft 2020-12, `$id` under `base`, a title and a description, every object closed."""
    everything = []
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
        if schema.get("$id") != base + path.name:
            problem(f'{path}: "$id" must be "{base + path.name}", found {schema.get("$id")!r}')
        for key in ("title", "description"):
            if not isinstance(schema.get(key), str) or not schema[key].strip():
                problem(f'{path}: needs a "{key}"')
        for where, sub in objects_without_closed_properties(schema):
            problem(f"{path}: the object schema at {where} does not say additionalProperties: false")
        everything.append((path, schema))
    return everything


def load_schemas(folder):
    """Returns ({(type, version): (file name, schema)}, [all schemas]) after checking each file."""
    events, everything = {}, load_folder(folder, BASE)
    for path, schema in everything:
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
            # Renders of version 1 (no drawnFontSize) were stored as PNG exactly where there is an overlay;
            # later ones in the format the renderer chose from the pixels, either.
            if kind == "RenderedThumbnail" and "drawnFontSize" not in value:
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
        elif key in ("sha256", "inputsDigest", "recordedHash"):
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
                yield f"{pointer(path)} on two lines (CR)", replaced(payload, path, "a\rb")
            for name, control in CONTROLS.items():
                yield f"{pointer(path)} holding {name}", replaced(payload, path, "a" + control + "b")
        elif key in ("witness",) or (len(path) >= 2 and path[-2] == "setAside"):
            yield f"{pointer(path)} empty", replaced(payload, path, "")
            for name, control in CONTROLS.items():
                yield f"{pointer(path)} holding {name}", replaced(payload, path, "a" + control + "b")
        else:
            problem(f"{type_}: no negative checks for the string field at {pointer(path)}; teach broken_versions")


def lenient_versions(payload):
    """(what, payload): text the domain writes although it looks odd; the schema must take it too."""
    for path, value in walk(payload):
        if path and isinstance(value, str) and path[-1] in TEXT_FIELDS and not TEXT_FIELDS[path[-1]][1]:
            yield f"{pointer(path)} on several lines", replaced(payload, path, "one\n\ntwo\r\nthree\rfour")


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
        for what, lenient in lenient_versions(payload):
            for at, message in errors_of(validators[key], lenient):
                problem(f"{file_name} refuses a {key[0]} the domain writes ({where} with {what}): at {at}: {message}")
    return tried


# MARK: Commands: the lines of `episodic submit`

COMMAND_BASE = "https://episodic.example/schemas/commands/"
COMMAND_FILE_NAME = re.compile(r"^([a-z]+(?:\.[a-z]+(?:-[a-z]+)*)+)\.schema\.json$")

# A second statement of the domain's limits, so that the broken lines do not trust the schemas:
# free text field -> (limit once trimmed, one line only).
COMMAND_TEXT = {"name": (200, True), "title": (200, True), "description": (5000, False), "fontName": (200, True)}
THUMBNAIL_TEXT_LIMIT = 100
# Setting -> its range, as ThumbnailSettings.swift gives it.
SETTING_RANGES = {
    "fontSize": (12, 200), "textPositionX": (0, 1), "textPositionY": (0, 1), "horizontalPadding": (0, 200),
    "verticalPadding": (0, 200), "canvasWidth": (16, 8192), "canvasHeight": (16, 8192),
}
# Setting -> values just outside its range, and whether it is a whole number.
SETTING_OUT_OF_RANGE = {
    "fontSize": ((11.9, 200.5), False), "textPositionX": ((-0.01, 1.01), False),
    "textPositionY": ((-0.01, 1.01), False), "horizontalPadding": ((-1, 200.5), False),
    "verticalPadding": ((-1, 200.5), False), "canvasWidth": ((15, 8193), True), "canvasHeight": ((15, 8193), True),
    "overlayScale": ((0.04, 10.5), False), "overlayPositionX": ((-0.01, 1.01), False),
    "overlayPositionY": ((-0.01, 1.01), False),
}
# Command -> its required fields that take null, to clear what they set: required so that a forgotten
# field never clears anything, nullable so that clearing can be asked for. Stated here a second time, as
# in ScriptLine.swift, so that the broken and lenient lines do not trust the schemas.
NULL_CLEARS = {
    "podcast.describe": {"description"}, "episode.describe": {"description"},
    "episode.publish-date": {"publishDate"}, "thumbnail.text": {"text"}, "podcast.text": {"text"},
}
# Two characters the patterns must get right: U+00A0 is white space the domain trims, and U+2028 is a
# line break to it, so a one-line text cannot hold one.
NO_BREAK_SPACE, LINE_SEPARATOR = "\u00a0", "\u2028"


def shapes_of(commands):
    """{command: (required, optional)} as the command schemas give them (held to the parser by
    CommandSchemaShapeTests), for the lines broken on purpose."""
    shapes = {}
    for name, (_, schema) in commands.items():
        required = [key for key in schema.get("required", []) if key != "command"]
        optional = [key for key in schema.get("properties", {}) if key != "command" and key not in required]
        shapes[name] = (required, optional)
    return shapes


def load_command_schemas(folder):
    """Returns ({command: (file name, schema)}, [all schemas]), each an object of closed properties whose
    "command" is its name."""
    commands, everything = {}, load_folder(folder, COMMAND_BASE)
    for path, schema in everything:
        if path.name == DEFINITIONS:
            continue
        match = COMMAND_FILE_NAME.match(path.name)
        if not match:
            problem(f"{path}: a command schema must be named <command>.schema.json, e.g. podcast.create.schema.json")
            continue
        name = match[1]
        commands[name] = (path.name, schema)
        required = [key for key in schema.get("required", []) if key != "command"]
        properties = schema.get("properties", {})
        if schema.get("type") != "object" or schema.get("additionalProperties") is not False:
            problem(f"{path}: a command schema must be an object with additionalProperties: false")
        if properties.get("command") != {"const": name}:
            problem(f'{path}: "command" must be {{"const": "{name}"}}')
        if "command" not in schema.get("required", []):
            problem(f'{path}: "command" must be required')
        check_null_clears(path, name, required, properties)
    return commands, everything


def nullable(property_schema):
    return any(option.get("type") == "null" for option in property_schema.get("anyOf", []))


def check_null_clears(path, name, required, properties):
    """A required field takes null exactly when NULL_CLEARS says it clears: the parser requires it, so
    that a forgotten field never clears anything, and reads null as "clear"."""
    clears = NULL_CLEARS.get(name, set())
    for key in sorted(clears - set(required)):
        problem(f"{path}: NULL_CLEARS names {key}, which the schema does not require")
    for key in required:
        if nullable(properties.get(key, {})) != (key in clears):
            problem(f"{path}: the required {key} {'takes' if key not in clears else 'does not take'} null; "
                    f"NULL_CLEARS in tools/check_schemas.py says it {'clears' if key in clears else 'does not'}")


def read_examples(path):
    """[(line number, line)] of the fixture's command lines; blank lines are skipped, as submit does."""
    examples = []
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as error:
            problem(f"{path.name}:{number}: not JSON: {error}")
            continue
        if not isinstance(line, dict) or not isinstance(line.get("command"), str):
            problem(f'{path.name}:{number}: not an object with a "command": {text[:120]}')
            continue
        examples.append((number, line))
    return examples


def validate_examples(path, examples, commands, validators, settings_schema):
    """Validates each line against its command's schema, and checks that the lines show every field:
    each command, each of its fields, null wherever null is allowed, and every thumbnail setting."""
    seen, nulls, settings_seen, settings_nulls = {}, {}, set(), set()
    for number, line in examples:
        name = line["command"]
        if name not in commands:
            problem(f"{path.name}:{number}: no schema for the command {name!r}")
            continue
        for where, message in errors_of(validators[name], line):
            problem(f"{path.name}:{number} ({name}) does not match {commands[name][0]}: at {where}: {message}")
        seen.setdefault(name, set()).update(line)
        nulls.setdefault(name, set()).update(key for key, value in line.items() if value is None)
        if isinstance(line.get("settings"), dict):
            settings_seen.update(line["settings"])
            settings_nulls.update(key for key, value in line["settings"].items() if value is None)
    for name, (file_name, schema) in sorted(commands.items()):
        if name not in seen:
            problem(f"{path.name}: no line for {name}; add one")
            continue
        for key, property_schema in schema.get("properties", {}).items():
            if key not in seen[name]:
                problem(f"{path.name}: no {name} line gives {key}; add one")
            elif nullable(property_schema) and key not in nulls[name]:
                problem(f"{path.name}: no {name} line gives {key} as null; add one")
    for key, property_schema in settings_schema.get("properties", {}).items():
        if key not in settings_seen:
            problem(f"{path.name}: no line sets the thumbnail setting {key}; add one")
        elif nullable(property_schema) and key not in settings_nulls:
            problem(f"{path.name}: no line sets the thumbnail setting {key} to null; add one")
    return len(seen)


def broken_text(key, value, limit, one_line, blank_allowed):
    """Free text the domain refuses: too long once trimmed, on two lines, blank where it is required."""
    if not blank_allowed:
        yield f"{key} empty", ""
        yield f"{key} blank", f" \t{NO_BREAK_SPACE}\n"
    yield f"{key} of {limit + 1} characters", "x" * (limit + 1)
    yield f"{key} of {limit + 1} characters between spaces", " " + "x" * (limit + 1) + " "
    if one_line:
        yield f"{key} on two lines", "a\nb"
        yield f"{key} on two lines (U+2028)", f"a{LINE_SEPARATOR}b"
        yield f"{key} on two lines (CR)", "a\rb"
    for name, control in CONTROLS.items():
        yield f"{key} holding {name}", "a" + control + "b"
        yield f"{key} holding {name}, between spaces", " a" + control + "b "


def lenient_text(key, value, limit, one_line, blank_allowed):
    """Free text the domain takes, as it trims first: the schema must take it too."""
    yield f"{key} between white space", f" \t{NO_BREAK_SPACE}" + value + " \n"
    yield f"{key} of {limit} characters between spaces", "  " + "x" * limit + "\n"
    if blank_allowed:
        yield f"{key} empty (none)", ""
        yield f"{key} blank (none)", " \n "
    if not one_line:
        yield f"{key} on several lines", "one\n\ntwo\r\nthree"


def broken_setting(key, value):
    if value is None:
        yield f"settings.{key} as a number", 7
        return
    if key in SETTING_OUT_OF_RANGE:
        (below, above), whole = SETTING_OUT_OF_RANGE[key]
        yield f"settings.{key} = {below}", below
        yield f"settings.{key} = {above}", above
        yield f"settings.{key} as a string", str(value)
        yield f"settings.{key} as null", None
        if whole:
            yield f"settings.{key} = 1920.5", 1920.5
    elif key in ("fontColorHex", "outlineColorHex"):
        yield f"settings.{key} as #RGB", "#FFF"
        yield f"settings.{key} by name", "red"
        yield f"settings.{key} without #", value[1:]
        yield f"settings.{key} with a non-hex digit", "#GGCC00"
        yield f"settings.{key} with a trailing space", value + " "
        yield f"settings.{key} as null", None
    elif key in ("backgroundScaling", "textFit", "overlayPlacement"):
        # Each a word another of these settings takes, so that the enums cannot be mixed up.
        yield f"settings.{key} = stretch-fit", "stretch-fit"
        yield f"settings.{key} in another case", value[0].upper() + value[1:]
        yield f"settings.{key} as null", None
        other = {"backgroundScaling": "fill", "textFit": "fill", "overlayPlacement": "shrink"}[key]
        yield f"settings.{key} = {other}", other
    elif key == "outlineEnabled":
        yield f"settings.{key} as a string", str(value).lower()
        yield f"settings.{key} as 1", 1
        yield f"settings.{key} as null", None
    elif key == "fontName":
        yield f"settings.{key} as a number", 7
        limit, one_line = COMMAND_TEXT[key]
        for what, text in broken_text(f"settings.{key}", value, limit, one_line, blank_allowed=True):
            yield what, text
    else:
        problem(f"no negative checks for the thumbnail setting {key}; teach broken_setting")


def broken_value(name, key, value, optional):
    """(what, value) for `key` of a `name` line: each one the schema must refuse. `optional` is true
    for a field that takes null (an optional one, or a required one in NULL_CLEARS)."""
    if key in ("podcast", "episode"):
        yield f"{key} empty", ""
        yield f"{key} blank", "  "
    if key == "settings":
        yield "settings as an array", [value]
        yield "settings as a string", json.dumps(value)
        yield "settings as null", None
        yield "settings with an unknown (misspelt) setting", {**value, "fontsize": 40}
        for setting, setting_value in value.items():
            for what, broken in broken_setting(setting, setting_value):
                yield what, {**value, setting: broken}
        return
    if value is None:
        yield f"{key} as a number" if key != "number" else f"{key} as a string", 7 if key != "number" else "7"
        return
    if isinstance(value, bool):
        yield f"{key} as a string", str(value).lower()
        return
    if isinstance(value, (int, float)):
        yield f"{key} as a string", str(value)
        yield f"{key} as a boolean", True
        if key == "number":
            for bad in (0, -1, 2147483648, 1.5):
                yield f"{key} = {bad}", bad
        if not optional:
            yield f"{key} as null", None
        return
    if not isinstance(value, str):
        problem(f"{name}: no negative checks for {key} = {value!r}; teach broken_value")
        return
    yield f"{key} as a number", 7
    yield f"{key} as an array", [value]
    if not optional:
        yield f"{key} as null", None
    if key in COMMAND_TEXT:
        limit, one_line = COMMAND_TEXT[key]
        yield from broken_text(key, value, limit, one_line, blank_allowed=key == "description")
    elif key == "text" and name in ("thumbnail.text", "podcast.text"):
        yield from broken_text(key, value, THUMBNAIL_TEXT_LIMIT, False, blank_allowed=True)
    elif key == "text":
        yield "text empty", ""
        yield "text blank", " \n\t\ufeff"
    elif key == "file":
        yield "file empty", ""
    elif key == "id":
        yield "id not a UUID", "not-a-uuid"
        yield "id without dashes", value.replace("-", "")
        yield "id with a non-hex letter", "g" + value[1:]
        yield "id one digit short", value[:-1]
        yield "id in braces", "{" + value + "}"
        yield "id with a line feed after it", value + "\n"
    elif key == "publishDate":
        yield "publishDate without milliseconds", value[:19] + "Z"
        yield "publishDate with an offset", value[:23] + "+00:00"
        yield "publishDate without a zone", value[:23]
        yield "publishDate with a lowercase z", value[:23] + "z"
        yield "publishDate with a space for T", value[:10] + " " + value[11:]
        yield "publishDate as a date", value[:10]
        yield "publishDate in 1969", "1969" + value[4:]
        yield "publishDate in month 13", value[:5] + "13" + value[7:]
        yield "publishDate on day 32", value[:8] + "32" + value[10:]
        yield "publishDate at hour 24", value[:11] + "24" + value[13:]
        yield "publishDate with a line feed after it", value + "\n"
    elif key not in ("podcast", "episode"):
        problem(f"{name}: no negative checks for the string field {key}; teach broken_value")


def broken_lines(name, line, shape):
    """(what was broken, the broken line): each one a line the schema of `name` must refuse."""
    required, optional = shape
    other = "episode.delete" if name != "episode.delete" else "podcast.delete"
    yield f"command = {other}", {**line, "command": other}
    yield "command unknown", {**line, "command": "podcast.launch"}
    yield "command as a number", {**line, "command": 7}
    yield "without command", without(line, ("command",))
    yield "an unknown field", {**line, "unexpectedField": 1}
    yield "a field misspelt", {**line, "publish_date": "2026-11-21T18:30:00.000Z"}
    for key in required:
        if key in line:
            yield f"without the required {key}", without(line, (key,))
    for key, value in line.items():
        if key == "command":
            continue
        nullable = key in optional or key in NULL_CLEARS.get(name, set())
        for what, broken in broken_value(name, key, value, nullable):
            yield what, {**line, key: broken}
    if name == "transcript.import":
        yield "both file and text", {**line, "file": "transcript.txt", "text": "00:00:01\nA\nHi.\n"}
        alone = {key: value for key, value in line.items() if key not in ("file", "text")}
        yield "neither file nor text", alone
        yield "file as null", {**alone, "file": None}
        yield "text as null", {**alone, "text": None}


def lenient_lines(name, line):
    """(what, line): lines the domain takes although they look odd; the schema must take them too."""
    for key, value in line.items():
        if key in NULL_CLEARS.get(name, set()) and value is not None:
            yield f"{key} as null (clears it)", {**line, key: None}
        if key == "command" or not isinstance(value, (str, int, float, dict)) or isinstance(value, bool):
            continue
        if key in COMMAND_TEXT:
            limit, one_line = COMMAND_TEXT[key]
            for what, text in lenient_text(key, value, limit, one_line, blank_allowed=key == "description"):
                yield what, {**line, key: text}
        elif key == "text" and name in ("thumbnail.text", "podcast.text"):
            for what, text in lenient_text(key, value, THUMBNAIL_TEXT_LIMIT, False, blank_allowed=True):
                yield what, {**line, key: text}
        elif key == "id":
            yield "id in uppercase", {**line, key: value.upper()}
        elif key == "number":
            yield "number written 2.0", {**line, key: 2.0}
            yield "number = 2147483647", {**line, key: 2147483647}
        elif key == "settings" and value:
            yield "settings empty", {**line, key: {}}
            if "fontColorHex" in value:
                yield "settings.fontColorHex in lowercase", {**line, key: {**value, "fontColorHex": "#abcdef"}}
            if "fontName" in value:
                yield "settings.fontName empty (the default font)", {**line, key: {**value, "fontName": ""}}
            if "canvasWidth" in value:
                yield "settings.canvasWidth written 1920.0", {**line, key: {**value, "canvasWidth": 1920.0}}
            for setting, (low, high) in SETTING_RANGES.items():
                if setting in value:
                    yield f"settings.{setting} = {low}", {**line, key: {**value, setting: low}}
                    yield f"settings.{setting} = {high}", {**line, key: {**value, setting: high}}


def command_checks(path, examples, commands, validators, shapes):
    """Every broken line must be refused and every lenient one taken; returns how many of each."""
    broken_count, lenient_count = 0, 0
    for number, line in examples:
        name = line["command"]
        if name not in commands or name not in shapes:
            continue
        validator, file_name = validators[name], commands[name][0]
        for what, broken in broken_lines(name, line, shapes[name]):
            if json.dumps(broken, sort_keys=True) == json.dumps(line, sort_keys=True):  # True == 1 in Python
                problem(f"the negative check {what!r} left {path.name}:{number} unchanged; make it break something")
                continue
            broken_count += 1
            try:
                accepted = validator.is_valid(broken)
            except Unresolvable as error:
                problem(f"{file_name} cannot be applied: $ref {unresolvable(error)}")
                break
            if accepted:
                problem(f"{file_name} accepts a broken {name} ({path.name}:{number}): {what}")
        for what, lenient in lenient_lines(name, line):
            lenient_count += 1
            for where, message in errors_of(validator, lenient):
                problem(f"{file_name} refuses a line the domain takes ({path.name}:{number} with {what}): "
                        f"at {where}: {message}")
    return broken_count, lenient_count


def check_commands(folder, examples_path):
    """Checks schemas/commands against the example lines and lines broken on purpose; returns the summary."""
    commands, everything = load_command_schemas(folder)
    shapes = shapes_of(commands)
    registry = make_registry(everything)
    validators = {name: Draft202012Validator(schema, registry=registry) for name, (_, schema) in commands.items()}
    definitions = next((schema for path, schema in everything if path.name == DEFINITIONS), {})
    settings_schema = definitions.get("$defs", {}).get("ThumbnailSettings", {})
    if not settings_schema:
        problem(f"{folder}/{DEFINITIONS}: no $defs/ThumbnailSettings")
    if not examples_path.exists():
        problem(f"{examples_path} is missing: it holds the example lines of every command")
        return ""
    examples = read_examples(examples_path)
    covered = validate_examples(examples_path, examples, commands, validators, settings_schema)
    broken, lenient = command_checks(examples_path, examples, commands, validators, shapes)
    return (f"commands: {len(examples)} example lines of {covered} commands valid against {len(commands)} schemas; "
            f"{broken} broken lines all rejected, {lenient} lenient lines accepted")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schemas", type=pathlib.Path, required=True)
    parser.add_argument("--samples", type=pathlib.Path, required=True)
    parser.add_argument("--fixture", type=pathlib.Path, action="append", default=[], help="a stored log's lines; repeatable")
    parser.add_argument("--commands", type=pathlib.Path, default=ROOT / "schemas/commands")
    parser.add_argument("--examples", type=pathlib.Path, help="default: examples.jsonl in --commands")
    arguments = parser.parse_args()

    events, everything = load_schemas(arguments.schemas)
    registry = make_registry(everything)
    validators = {key: Draft202012Validator(schema, registry=registry) for key, (_, schema) in events.items()}

    samples = read_samples(arguments.samples)
    if not samples:
        problem(f"{arguments.samples}: no samples")
    validate_samples(samples, events, validators)

    fixture_lines, fixture_subjects = 0, []
    for fixture in arguments.fixture:
        lines, subjects = validate_fixture(fixture, events, validators)
        fixture_lines, fixture_subjects = fixture_lines + lines, fixture_subjects + subjects

    subjects = [(f"sample {n}", (t, v), p) for n, t, v, p in samples if (t, v) in events] + fixture_subjects
    broken = negative_checks(subjects, events, validators)

    commands = check_commands(
        arguments.commands, arguments.examples or arguments.commands / "examples.jsonl")

    if problems:
        print(f"schemas: {len(problems)} problem{'s' if len(problems) != 1 else ''} (listed above)")
        return 1
    types = len({t for _, t, _, _ in samples})
    fixture = f"; {fixture_lines} fixture lines valid" if arguments.fixture else ""
    print(f"schemas: {len(samples)} samples of {types} types valid against {len(events)} schemas{fixture}; "
          f"{broken} broken samples all rejected")
    print(commands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
