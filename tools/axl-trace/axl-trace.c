/*
 * axl-trace - reads a trace axl wrote (axl_trace_write, AXL_TRACE=file)
 * and says what a profiler's summary says (xbutil's, Vitis Analyzer's):
 *
 *   axl-trace summary [--json] [--gaps N] TRACE.json
 *
 * prints, over the trace's span (its first slice's start to its last
 * slice's end):
 *  - per compute unit (its track, named as the design names the unit):
 *    runs, busy time (the sum of its kernel slices, which never overlap on
 *    a track), utilisation (busy / span) and its longest idle time;
 *  - per direction (to a device, to the host, on a device): transfers,
 *    bytes, the time they took (their slices' durations; a slice that
 *    moved both ways counts in both) and the bandwidth (bytes / time);
 *  - the N longest idle gaps of any unit (default 5): a unit waiting, from
 *    the start of the trace to its first run, between runs, or from its
 *    last run to the end.
 *  - per device that reprogrammed on demand (the "program" slices,
 *    docs/designs-design.md 2.6): loads, those that failed, the time
 *    loading (their sum and the longest) and the commands they were for.
 * --json writes the same as one JSON object.
 *
 * Exit 0, 1 when the file cannot be read or is not an axl trace, 2 for a
 * bad command line. Only the trace's own fields are read (the format is
 * core/trace.c's: "X" slices with cat "kernel" on a unit's track,
 * "transfer" on a device's transfers track and "program" on its
 * "fabric" track, "M" names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../axl-xclbin/json.h"

typedef struct unit {
    long pid, tid;
    char name[64], device[96];
    unsigned runs;
    double busy, longest_idle;
    double *starts, *ends; /* its slices, sorted by start */
    size_t n, cap;
} unit;

typedef struct gap {
    const unit *u;
    double from, to;
} gap;

typedef struct flow {
    unsigned count;
    unsigned long long bytes;
    double time;
} flow;

/* A device's loads of a design (its "program" slices). */
typedef struct loads {
    long pid;
    char device[96];
    unsigned count, failed;
    unsigned long long commands;
    double time, longest; /* us */
} loads;

enum { TO_DEVICE, TO_HOST, ON_DEVICE, FLOWS };
static const char *const flow_names[FLOWS] = {"to_device", "to_host",
                                              "on_device"};
static const char *const flow_titles[FLOWS] = {"to device", "to host",
                                               "on device"};

static double num(const json *j)
{
    return j && j->text && (j->type == JSON_NUMBER) ? strtod(j->text, NULL)
                                                    : 0.0;
}

static unsigned long long u64(const json *j)
{
    uint64_t v = 0;
    if (j && j->type == JSON_NUMBER)
        v = strtoull(j->text, NULL, 10);
    return v;
}

static const char *str(const json *j)
{
    return j && j->type == JSON_STRING ? j->text : "";
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *p = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (p = malloc((size_t)n + 1))) {
        if (fread(p, 1, (size_t)n, f) != (size_t)n) {
            free(p);
            p = NULL;
        } else {
            p[n] = '\0';
            *size = (size_t)n;
        }
    }
    fclose(f);
    return p;
}

/* The name a metadata event gives track (pid, tid), or process pid
 * (tid -1). */
static const char *name_of(const json *events, long pid, long tid)
{
    for (const json *e = events->child; e; e = e->next) {
        if (strcmp(str(json_get(e, "ph")), "M") ||
            (long)num(json_get(e, "pid")) != pid)
            continue;
        const char *what = str(json_get(e, "name"));
        if (tid < 0 ? strcmp(what, "process_name")
                    : strcmp(what, "thread_name") ||
                          (long)num(json_get(e, "tid")) != tid)
            continue;
        return str(json_get(json_get(e, "args"), "name"));
    }
    return "";
}

/* The device's own name, from its process's ("device 0: axl emulated
 * FPGA 0"). */
static void device_name(char *out, size_t cap, const json *events, long pid)
{
    const char *dev = name_of(events, pid, -1);
    const char *colon = strstr(dev, ": ");
    snprintf(out, cap, "%s", colon ? colon + 2 : dev);
}

static unit *unit_of(unit **units, size_t *n, size_t *cap, const json *events,
                     long pid, long tid)
{
    for (size_t i = 0; i < *n; i++)
        if ((*units)[i].pid == pid && (*units)[i].tid == tid)
            return &(*units)[i];
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *units = realloc(*units, *cap * sizeof **units);
        if (!*units)
            exit(1);
    }
    unit *u = &(*units)[(*n)++];
    memset(u, 0, sizeof *u);
    u->pid = pid;
    u->tid = tid;
    snprintf(u->name, sizeof u->name, "%s", name_of(events, pid, tid));
    device_name(u->device, sizeof u->device, events, pid);
    return u;
}

static loads *loads_of(loads **all, size_t *n, size_t *cap,
                       const json *events, long pid)
{
    for (size_t i = 0; i < *n; i++)
        if ((*all)[i].pid == pid)
            return &(*all)[i];
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 4;
        *all = realloc(*all, *cap * sizeof **all);
        if (!*all)
            exit(1);
    }
    loads *l = &(*all)[(*n)++];
    memset(l, 0, sizeof *l);
    l->pid = pid;
    device_name(l->device, sizeof l->device, events, pid);
    return l;
}

static void add_load(loads *l, const json *args, double dur)
{
    l->count++;
    l->failed += strcmp(str(json_get(args, "status")), "AXL_SUCCESS") != 0;
    l->commands += u64(json_get(args, "commands"));
    l->time += dur;
    if (dur > l->longest)
        l->longest = dur;
}

static void add_run(unit *u, double start, double end)
{
    if (u->n == u->cap) {
        u->cap = u->cap ? 2 * u->cap : 16;
        u->starts = realloc(u->starts, u->cap * sizeof *u->starts);
        u->ends = realloc(u->ends, u->cap * sizeof *u->ends);
        if (!u->starts || !u->ends)
            exit(1);
    }
    /* Insert in order of start (records come in order of completion). */
    size_t at = u->n;
    while (at && u->starts[at - 1] > start) {
        u->starts[at] = u->starts[at - 1];
        u->ends[at] = u->ends[at - 1];
        at--;
    }
    u->starts[at] = start;
    u->ends[at] = end;
    u->n++;
    u->runs++;
    u->busy += end - start;
}

static int by_length(const void *a, const void *b)
{
    double x = ((const gap *)a)->to - ((const gap *)a)->from;
    double y = ((const gap *)b)->to - ((const gap *)b)->from;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void bytes_text(char *out, size_t cap, unsigned long long n)
{
    if (n >= 10ull << 20)
        snprintf(out, cap, "%.1f MiB", (double)n / (1 << 20));
    else if (n >= 10ull << 10)
        snprintf(out, cap, "%.1f KiB", (double)n / (1 << 10));
    else
        snprintf(out, cap, "%llu B", n);
}

static int usage(void)
{
    fprintf(stderr, "usage: axl-trace summary [--json] [--gaps N] TRACE.json\n");
    return 2;
}

int main(int argc, char **argv)
{
    int as_json = 0;
    long ngaps = 5;
    const char *path = NULL;
    if (argc < 3 || strcmp(argv[1], "summary"))
        return usage();
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            as_json = 1;
        else if (!strcmp(argv[i], "--gaps") && i + 1 < argc)
            ngaps = strtol(argv[++i], NULL, 10);
        else if (argv[i][0] == '-' || path)
            return usage();
        else
            path = argv[i];
    }
    if (!path || ngaps < 0)
        return usage();
    size_t size = 0;
    char *text = read_file(path, &size);
    if (!text) {
        fprintf(stderr, "axl-trace: cannot read %s\n", path);
        return 1;
    }
    unsigned line = 0;
    char why[160];
    json *doc = json_parse(text, size, &line, why, sizeof why);
    const json *events = doc ? json_get(doc, "traceEvents") : NULL;
    if (!doc || !events || events->type != JSON_ARRAY) {
        if (doc)
            fprintf(stderr, "axl-trace: %s: not an axl trace (no "
                            "traceEvents)\n", path);
        else
            fprintf(stderr, "axl-trace: %s:%u: %s\n", path, line, why);
        json_free(doc);
        free(text);
        return 1;
    }

    double t0 = 0, t1 = 0;
    int any = 0;
    unsigned commands = 0;
    unit *units = NULL;
    size_t nunits = 0, cap = 0;
    flow flows[FLOWS] = {{0}};
    unsigned transfers = 0;
    loads *devs = NULL;
    size_t ndevs = 0, dcap = 0;
    for (const json *e = events->child; e; e = e->next) {
        if (strcmp(str(json_get(e, "ph")), "X"))
            continue;
        double ts = num(json_get(e, "ts")), dur = num(json_get(e, "dur"));
        if (!any || ts < t0)
            t0 = ts;
        if (!any || ts + dur > t1)
            t1 = ts + dur;
        any = 1;
        const char *cat = str(json_get(e, "cat"));
        const json *a = json_get(e, "args");
        if (!strcmp(cat, "command")) {
            commands++;
        } else if (!strcmp(cat, "kernel")) {
            add_run(unit_of(&units, &nunits, &cap, events,
                            (long)num(json_get(e, "pid")),
                            (long)num(json_get(e, "tid"))),
                    ts, ts + dur);
        } else if (!strcmp(cat, "program")) {
            add_load(loads_of(&devs, &ndevs, &dcap, events,
                              (long)num(json_get(e, "pid"))),
                     a, dur);
        } else if (!strcmp(cat, "transfer")) {
            transfers++;
            unsigned long long in = u64(json_get(a, "to_device"));
            unsigned long long out = u64(json_get(a, "to_host"));
            if (!strcmp(str(json_get(a, "direction")), "on_device")) {
                flows[ON_DEVICE].count++;
                flows[ON_DEVICE].bytes += u64(json_get(a, "bytes"));
                flows[ON_DEVICE].time += dur;
            }
            if (in) {
                flows[TO_DEVICE].count++;
                flows[TO_DEVICE].bytes += in;
                flows[TO_DEVICE].time += dur;
            }
            if (out) {
                flows[TO_HOST].count++;
                flows[TO_HOST].bytes += out;
                flows[TO_HOST].time += dur;
            }
        }
    }
    const double span = t1 - t0;

    /* Idle gaps: before each run, and after the last, within the span. */
    size_t ng = 0, gcap = 0;
    gap *gaps = NULL;
    for (size_t i = 0; i < nunits; i++) {
        unit *u = &units[i];
        double at = t0;
        for (size_t r = 0; r <= u->n; r++) {
            double next = r < u->n ? u->starts[r] : t1;
            if (next > at) {
                if (ng == gcap) {
                    gcap = gcap ? 2 * gcap : 32;
                    gaps = realloc(gaps, gcap * sizeof *gaps);
                    if (!gaps)
                        return 1;
                }
                gaps[ng++] = (gap){u, at, next};
                if (next - at > u->longest_idle)
                    u->longest_idle = next - at;
            }
            if (r < u->n && u->ends[r] > at)
                at = u->ends[r];
        }
    }
    qsort(gaps, ng, sizeof *gaps, by_length);
    if ((size_t)ngaps > ng)
        ngaps = (long)ng;

    if (as_json) {
        printf("{\"format\":\"axl-trace-summary\",\"version\":1,\"trace\":");
        json_string(path);
        printf(",\"span_us\":%.3f,\"commands\":%u,\"transfers\":%u,"
               "\"units\":[",
               span, commands, transfers);
        for (size_t i = 0; i < nunits; i++) {
            const unit *u = &units[i];
            printf("%s{\"unit\":", i ? "," : "");
            json_string(u->name);
            printf(",\"device\":");
            json_string(u->device);
            printf(",\"runs\":%u,\"busy_us\":%.3f,\"utilisation\":%.6f,"
                   "\"longest_idle_us\":%.3f}",
                   u->runs, u->busy, span > 0 ? u->busy / span : 0.0,
                   u->longest_idle);
        }
        printf("],\"directions\":{");
        for (int f = 0; f < FLOWS; f++)
            printf("%s\"%s\":{\"count\":%u,\"bytes\":%llu,\"time_us\":%.3f,"
                   "\"bandwidth_mb_s\":%.3f}",
                   f ? "," : "", flow_names[f], flows[f].count,
                   flows[f].bytes, flows[f].time,
                   flows[f].time > 0 ? (double)flows[f].bytes / flows[f].time
                                     : 0.0);
        printf("},\"gaps\":[");
        for (long g = 0; g < ngaps; g++) {
            printf("%s{\"unit\":", g ? "," : "");
            json_string(gaps[g].u->name);
            printf(",\"device\":");
            json_string(gaps[g].u->device);
            printf(",\"from_us\":%.3f,\"to_us\":%.3f,\"idle_us\":%.3f}",
                   gaps[g].from - t0, gaps[g].to - t0,
                   gaps[g].to - gaps[g].from);
        }
        printf("],\"reprogramming\":[");
        for (size_t i = 0; i < ndevs; i++) {
            printf("%s{\"device\":", i ? "," : "");
            json_string(devs[i].device);
            printf(",\"loads\":%u,\"failed\":%u,\"load_us\":%.3f,"
                   "\"longest_load_us\":%.3f,\"commands\":%llu}",
                   devs[i].count, devs[i].failed, devs[i].time,
                   devs[i].longest, devs[i].commands);
        }
        printf("]}\n");
    } else {
        printf("%s: %.3f us, %u commands, %zu compute units, %u transfers\n\n",
               path, span, commands, nunits, transfers);
        printf("%-16s %-24s %6s %14s %12s %18s\n", "unit", "device", "runs",
               "busy (us)", "utilisation", "longest idle (us)");
        for (size_t i = 0; i < nunits; i++) {
            const unit *u = &units[i];
            printf("%-16s %-24.24s %6u %14.3f %11.1f%% %18.3f\n", u->name,
                   u->device, u->runs, u->busy,
                   span > 0 ? 100.0 * u->busy / span : 0.0, u->longest_idle);
        }
        printf("\n%-16s %6s %14s %14s %18s\n", "direction", "count", "bytes",
               "time (us)", "bandwidth (MB/s)");
        for (int f = 0; f < FLOWS; f++) {
            char b[32];
            bytes_text(b, sizeof b, flows[f].bytes);
            /* bytes per us is MB/s */
            printf("%-16s %6u %14s %14.3f %18.1f\n", flow_titles[f],
                   flows[f].count, b, flows[f].time,
                   flows[f].time > 0
                       ? (double)flows[f].bytes / flows[f].time
                       : 0.0);
        }
        printf("\nlongest idle gaps (us from the start of the trace)\n");
        for (long g = 0; g < ngaps; g++)
            printf("  %-16s %-24.24s %12.3f  from %.3f to %.3f\n",
                   gaps[g].u->name, gaps[g].u->device,
                   gaps[g].to - gaps[g].from, gaps[g].from - t0,
                   gaps[g].to - t0);
        if (!ngaps)
            printf("  (none)\n");
        if (ndevs) {
            printf("\n%-24s %6s %6s %14s %14s %9s\n", "reprogrammed",
                   "loads", "failed", "loading (us)", "longest (us)",
                   "commands");
            for (size_t i = 0; i < ndevs; i++)
                printf("%-24.24s %6u %6u %14.3f %14.3f %9llu\n",
                       devs[i].device, devs[i].count, devs[i].failed,
                       devs[i].time, devs[i].longest, devs[i].commands);
        }
    }
    free(devs);
    for (size_t i = 0; i < nunits; i++) {
        free(units[i].starts);
        free(units[i].ends);
    }
    free(units);
    free(gaps);
    json_free(doc);
    free(text);
    return 0;
}
