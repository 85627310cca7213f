import Foundation

/// A scrape read by the rules of Prometheus's text format 0.0.4: every line a comment, a
/// `# TYPE` given once per family before its samples, or a sample `name{label="value",…} number`;
/// a histogram's buckets cumulative, its `+Inf` bucket equal to its count. Anything else throws.
public struct PrometheusText: Sendable {
    public struct Sample: Sendable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public private(set) var samples: [Sample] = []
    public private(set) var types: [String: String] = [:]

    public init(_ answer: HTTPAnswer) throws {
        guard answer.status == 200 else { throw ServerTestError("/metrics answered \(answer.status)") }
        guard answer.headers["content-type"]?.hasPrefix("text/plain") == true else {
            throw ServerTestError("content type \(answer.headers["content-type"] ?? "none")")
        }
        try self.init(text: String(decoding: answer.body, as: UTF8.self))
    }

    public init(text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3)
                guard words.count >= 2, words[0] == "#" else { continue }
                if words[1] == "TYPE" {
                    guard words.count == 4, Self.isName(words[2]),
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3])
                    else { throw ServerTestError("bad TYPE line: \(line)") }
                    guard types.updateValue(String(words[3]), forKey: String(words[2])) == nil else {
                        throw ServerTestError("a second TYPE for \(words[2])")
                    }
                }
                continue
            }
            let sample = try Self.sample(line)
            guard types[Self.family(of: sample.name, types: types)] != nil else {
                throw ServerTestError("\(sample.name) has no TYPE before it")
            }
            samples.append(sample)
        }
        try checkHistograms()
    }

    /// The sample's value (0 when there is none: a counter not yet moved).
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.first { $0.name == name && $0.labels == labels }?.value ?? 0
    }

    public func has(_ name: String, _ labels: [String: String] = [:]) -> Bool {
        samples.contains { $0.name == name && $0.labels == labels }
    }

    private static func family(of name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let family = String(name.dropLast(suffix.count))
            if types[family] == "histogram" || types[family] == "summary" { return family }
        }
        return name
    }

    private static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    private static func sample(_ line: Substring) throws -> Sample {
        var rest = line[...]
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard isName(name) else { throw ServerTestError("bad metric name in \(line)") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix { $0 != "=" }
                guard isName(label), !label.contains(":") else { throw ServerTestError("bad label name in \(line)") }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw ServerTestError("no quoted value in \(line)") }
                rest = rest.dropFirst(2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first, ["\\", "\"", "n"].contains(escaped) else {
                            throw ServerTestError("bad escape in \(line)")
                        }
                        value.append(escaped == "n" ? "\n" : escaped)
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"" else { throw ServerTestError("unterminated value in \(line)") }
                rest = rest.dropFirst()
                guard labels.updateValue(value, forKey: String(label)) == nil else { throw ServerTestError("a label twice in \(line)") }
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw ServerTestError("bad labels in \(line)")
                }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard (1...2).contains(fields.count), let value = number(fields[0]), fields.count == 1 || Int64(fields[1]) != nil else {
            throw ServerTestError("bad value in \(line)")
        }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    private func checkHistograms() throws {
        for (family, type) in types where type == "histogram" {
            let counts = samples.filter { $0.name == "\(family)_count" }
            for count in counts {
                let buckets = samples.filter { $0.name == "\(family)_bucket" && $0.labels.filter { $0.key != "le" } == count.labels }
                    .compactMap { bucket in bucket.labels["le"].flatMap { Self.number($0[...]) }.map { ($0, bucket.value) } }
                    .sorted { $0.0 < $1.0 }
                guard buckets.last?.0 == .infinity, buckets.last?.1 == count.value,
                    zip(buckets, buckets.dropFirst()).allSatisfy({ $0.1 <= $1.1 })
                else { throw ServerTestError("\(family)\(count.labels): buckets not cumulative up to its count") }
                guard samples.contains(where: { $0.name == "\(family)_sum" && $0.labels == count.labels }) else {
                    throw ServerTestError("\(family)\(count.labels) has no sum")
                }
            }
        }
    }
}
