using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;

namespace PooledHttp.Workshop.Measuring;

/// <summary>Appends measured rows to a CSV (and reads them back), one row per strategy, size and runtime.</summary>
public static class ResultsCsv
{
    /// <summary>The header, in column order.</summary>
    public const string Header = "notebook,benchmark,strategy,payload_bytes,variant,runtime,allocated_bytes,gen0,gen1,gen2,mean_ns,error_ns,profile,timestamp_utc,machine";

    private const int FieldCount = 15;

    /// <summary>Appends <paramref name="rows"/> to <paramref name="path"/>, writing the header when the file is new.</summary>
    public static void Append(string path, IEnumerable<MeasuredRow> rows)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        bool isNew = !File.Exists(path) || new FileInfo(path).Length == 0;
        var text = new StringBuilder();
        if (isNew)
        {
            text.AppendLine(Header);
        }

        string stamp = DateTime.UtcNow.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture);
        string machine = Escape($"{RuntimeInformation.OSDescription}; {Environment.ProcessorCount} cores; {RuntimeInformation.ProcessArchitecture}");
        foreach (MeasuredRow r in rows)
        {
            text.AppendLine(string.Join(',',
                Escape(r.Notebook), Escape(r.Benchmark), Escape(r.Strategy),
                r.PayloadBytes?.ToString(CultureInfo.InvariantCulture) ?? string.Empty, Escape(r.Variant),
                Escape(r.Runtime), r.AllocatedBytes.ToString(CultureInfo.InvariantCulture),
                Num(r.Gen0), Num(r.Gen1), Num(r.Gen2), Num(r.MeanNs), Num(r.ErrorNs),
                Escape(r.Profile), stamp, machine));
        }

        File.AppendAllText(path, text.ToString());
    }

    /// <summary>Reads the rows of a results CSV written by <see cref="Append"/>.</summary>
    public static IReadOnlyList<MeasuredRow> Read(string path)
    {
        string[] lines = File.ReadAllLines(path);
        if (lines.Length == 0 || lines[0] != Header)
        {
            throw new InvalidDataException($"{path} is not a results CSV: its first line is not the expected header.");
        }

        return lines.Skip(1).Where(l => l.Length > 0).Select(line =>
        {
            string[] f = CsvLine.Split(line);
            if (f.Length != FieldCount)
            {
                throw new InvalidDataException($"{path}: expected {FieldCount} fields, got {f.Length}: {line}");
            }

            return new MeasuredRow(f[0], f[1], f[2], f[3].Length == 0 ? null : int.Parse(f[3], CultureInfo.InvariantCulture), f[4], f[5],
                long.Parse(f[6], CultureInfo.InvariantCulture), D(f[7]), D(f[8]), D(f[9]), D(f[10]), D(f[11]), f[12]);
        }).ToList();
    }

    private static double D(string s) => double.Parse(s, CultureInfo.InvariantCulture);

    private static string Num(double value) => value.ToString("0.####", CultureInfo.InvariantCulture);

    private static string Escape(string value) => value.AsSpan().IndexOfAny(",\"\n") >= 0 ? "\"" + value.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"" : value;
}
