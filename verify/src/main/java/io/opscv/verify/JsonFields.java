package io.opscv.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed reads of one JSON object of a case file, with messages that say where ({@code context}),
 * which field, what was expected and what was found. It remembers the fields read, so that
 * {@link #rejectUnknown} can catch a misspelt field instead of silently ignoring it.
 */
final class JsonFields {
    private final JsonNode object;
    private final String context;
    private final Set<String> read = new HashSet<>();

    JsonFields(JsonNode object, String context) {
        if (object == null || !object.isObject()) {
            throw new CaseFileException(context + ": expected a JSON object, but got " + kind(object));
        }
        this.object = object;
        this.context = context;
    }

    String context() {
        return context;
    }

    boolean has(String field) {
        return object.has(field) && !object.get(field).isNull();
    }

    /** The field's node, or {@code null} when absent (or JSON null). */
    JsonNode node(String field) {
        read.add(field);
        JsonNode node = object.get(field);
        return node == null || node.isNull() ? null : node;
    }

    String requiredText(String field) {
        JsonNode node = node(field);
        if (node == null) {
            throw missing(field);
        }
        return text(field, node);
    }

    String text(String field, String fallback) {
        JsonNode node = node(field);
        return node == null ? fallback : text(field, node);
    }

    private String text(String field, JsonNode node) {
        if (!node.isTextual()) {
            throw wrong(field, "a string", node);
        }
        return node.asText();
    }

    int requiredInt(String field, int min) {
        JsonNode node = node(field);
        if (node == null) {
            throw missing(field);
        }
        return integer(field, node, min);
    }

    Integer optionalInt(String field, int min) {
        JsonNode node = node(field);
        return node == null ? null : integer(field, node, min);
    }

    int integer(String field, JsonNode node, int min) {
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.asInt() < min) {
            throw wrong(field, "an integer >= " + min, node);
        }
        return node.asInt();
    }

    long requiredLong(String field) {
        JsonNode node = node(field);
        if (node == null) {
            throw missing(field);
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw wrong(field, "an integer", node);
        }
        return node.asLong();
    }

    double number(String field, double fallback) {
        JsonNode node = node(field);
        if (node == null) {
            return fallback;
        }
        if (!node.isNumber()) {
            throw wrong(field, "a number", node);
        }
        return node.asDouble();
    }

    boolean bool(String field, boolean fallback) {
        JsonNode node = node(field);
        if (node == null) {
            return fallback;
        }
        if (!node.isBoolean()) {
            throw wrong(field, "true or false", node);
        }
        return node.asBoolean();
    }

    /** Fails on a field neither read nor in {@code informational} (fields that describe but do not change a case). */
    void rejectUnknown(Set<String> informational) {
        Set<String> unknown = new TreeSet<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!read.contains(field) && !informational.contains(field) && !field.startsWith("_")) {
                unknown.add(field);
            }
        }
        if (!unknown.isEmpty()) {
            Set<String> known = new TreeSet<>(read);
            known.addAll(informational);
            throw new CaseFileException(context + ": unknown field" + (unknown.size() > 1 ? "s " : " ") + unknown
                    + " (fields here: " + known + "; names starting with '_' are comments)");
        }
    }

    CaseFileException missing(String field) {
        return new CaseFileException(context + ": missing field '" + field + "'");
    }

    CaseFileException wrong(String field, String expected, JsonNode node) {
        return new CaseFileException(context + ": field '" + field + "' should be " + expected + ", but got " + shown(node));
    }

    static String kind(JsonNode node) {
        if (node == null || node.isNull()) {
            return "nothing";
        }
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + shown(node);
    }

    static String shown(JsonNode node) {
        String text = node.toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }
}
