package io.opscv.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites a kernel class's source so that each static method taking a {@code MemorySegment} runs as one of its
 * twins: {@code nameOffHeap}, {@code nameFloatArrays} and {@code nameShortArrays}, whose first statements cast its
 * segments to that one class ({@link SegmentClasses}), and {@code nameAnyMemory}, the body as written; the method
 * itself keeps its name, javadoc and signature and calls the first twin whose class every segment it is given has.
 * Every segment access goes through JDK methods whose receiver profiles all callers share: once a process has passed
 * both off-heap and heap memory through them, an access compiled from those profiles serves every kind, and calls
 * ran up to 3.8 × slower (docs/KERNELS.md, "Heap and off-heap memory in one process"). In a twin that casts, C2 binds
 * those methods from the cast instead.
 *
 * <p>The source is the house's: methods at four spaces of indent, their body closed by a line {@code "    }"},
 * parameters without annotations or generic commas.
 */
final class SegmentTwins {
    private static final Pattern HEADER = Pattern.compile(
            "^    ((?:public |private |protected )?)static ((?:final )?[\\w.<>\\[\\]]+) (\\w+)\\(");
    private static final Pattern SEGMENT_PARAMETER = Pattern.compile("^\\s*(?:final\\s+)?MemorySegment\\s+(\\w+)$");

    /** A twin whose segments are all of one class: its name's suffix, the class, and the memory it serves. */
    private record Kind(String suffix, String type, String memory) {}

    /** The twins that cast, tried in this order; segments of mixed or other classes take {@code nameAnyMemory}. */
    private static final List<Kind> CAST = List.of(
            new Kind("OffHeap", "SegmentClasses.OFF_HEAP", "off-heap memory"),
            new Kind("FloatArrays", "SegmentClasses.FLOAT_ARRAY", "float arrays"),
            new Kind("ShortArrays", "SegmentClasses.SHORT_ARRAY", "short arrays"));

    private SegmentTwins() {}

    /** {@code source} with every static method that takes a segment split into its twins. */
    static String apply(String source) {
        List<String> lines = source.lines().toList();
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < lines.size()) {
            Matcher m = HEADER.matcher(lines.get(i));
            if (!m.find()) {
                out.append(lines.get(i++)).append('\n');
                continue;
            }
            int headerEnd = i;
            while (!lines.get(headerEnd).endsWith("{")) {
                headerEnd++;
            }
            String header = String.join("\n", lines.subList(i, headerEnd + 1));
            int bodyEnd = lines.subList(headerEnd + 1, lines.size()).indexOf("    }") + headerEnd + 1;
            List<String> body = lines.subList(headerEnd + 1, bodyEnd);
            String parameters = header.substring(header.indexOf('(', m.start(3)) + 1, header.lastIndexOf(')'));
            List<String> names = new ArrayList<>();
            List<String> segments = new ArrayList<>();
            for (String p : parameters.split(",")) {
                String parameter = p.strip();
                names.add(parameter.substring(parameter.lastIndexOf(' ') + 1));
                Matcher s = SEGMENT_PARAMETER.matcher(parameter);
                if (s.matches()) {
                    segments.add(s.group(1));
                }
            }
            if (segments.isEmpty()) {
                for (int k = i; k <= bodyEnd; k++) {
                    out.append(lines.get(k)).append('\n');
                }
                i = bodyEnd + 1;
                continue;
            }
            out.append(dispatcher(header, m.group(3), !m.group(2).equals("void"), names, segments));
            String twinHeader = header.substring(m.end(1)).replaceFirst("^(static " + Pattern.quote(m.group(2))
                    + " )" + m.group(3) + "\\(", "private $1" + m.group(3) + "%s(");
            for (Kind kind : CAST) {
                out.append(twin(twinHeader, m.group(3), kind.suffix(), kind.memory(), body, segments.stream()
                        .map(s -> "        " + s + " = (MemorySegment) " + kind.type() + ".cast(" + s + ");\n")
                        .toList()));
            }
            out.append(twin(twinHeader, m.group(3), "AnyMemory", "any memory", body, List.of()));
            i = bodyEnd + 1;
        }
        return out.toString();
    }

    /** The method as called: the first twin whose class every segment has, else the one that does not cast. */
    private static String dispatcher(String header, String name, boolean returns, List<String> names,
                                     List<String> segments) {
        StringBuilder out = new StringBuilder(header).append('\n');
        String call = String.join(", ", names) + ");\n";
        String result = returns ? "return " : "";
        for (int k = 0; k < CAST.size(); k++) {
            Kind kind = CAST.get(k);
            out.append(k == 0 || returns ? "        if (" : " else if (").append(String.join(" && ", segments
                    .stream().map(s -> kind.type() + ".isInstance(" + s + ")").toList())).append(") {\n");
            out.append("            ").append(result).append(name).append(kind.suffix()).append('(').append(call);
            out.append("        }").append(returns ? "\n" : "");
        }
        out.append(returns ? "        " : " else {\n            ").append(result).append(name).append("AnyMemory(")
                .append(call);
        return out.append(returns ? "" : "        }\n").append("    }\n").toString();
    }

    /** One twin: {@code casts} (its first statements), then the body as written. */
    private static String twin(String header, String name, String suffix, String memory, List<String> body,
                               List<String> casts) {
        StringBuilder out = new StringBuilder("\n    /** {@link #").append(name).append("} on ").append(memory)
                .append(". */\n    ").append(header.formatted(suffix)).append('\n');
        casts.forEach(out::append);
        body.forEach(l -> out.append(l).append('\n'));
        return out.append("    }\n").toString();
    }
}
