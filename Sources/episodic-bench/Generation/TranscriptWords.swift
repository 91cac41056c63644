import CoreValues

/// The words of generated speech. A few hundred, drawn with a skew towards the first ones, so that a
/// search index sees what it sees in real talk: a handful of very common words and a long tail.
enum TranscriptWords {
    static let all: [String] = """
        the I and you to a that it of is so like we what know in this yeah just think but was it's \
        they do have right on be not for with about one really are if my can that's there get people \
        um uh mean go don't some or at all me your kind had would thing because how then when from \
        out time actually an more up he she our now them those okay going see well say make very \
        much lot good something way even where which want things other also these two could into first \
        back were been here need work new sure got than year years day week only same still being \
        over most any because by did take show episode podcast audio microphone interview guest \
        listeners recording studio editing transcript subtitles thumbnail release schedule feed \
        sponsor season story question answer idea problem project team community library archive \
        music sound voice room headphones cable laptop software version update build test bug fix \
        release deploy server database index query search event log replay projection snapshot \
        migration schema table column row file folder disk memory cache network latency throughput \
        garden election history radio theatre cycling fermentation translation climate taxes founder \
        bus footage jazz record sleep science city village river mountain coffee tea breakfast \
        morning evening weekend holiday travel train airport hotel market bakery kitchen recipe \
        maybe probably definitely absolutely honestly basically literally exactly totally pretty \
        interesting amazing weird funny hard easy simple complicated important different great big \
        small little long short old young early late fast slow quiet loud happy tired busy ready \
        talk talked talking said says tell told ask asked try tried trying use used using look \
        looked looking feel felt start started stop stopped find found give gave call called \
        remember forgot learn learned read wrote write writing listen listened hear heard play \
        played record recorded edit edited publish published share shared watch watched help \
        helped change changed keep kept move moved happen happened happens turn turned open \
        opened close closed bring brought leave left hold held run ran pay paid meet met \
        Monday Tuesday Wednesday Thursday Friday January March June September December \
        London Berlin Lisbon Tokyo Lagos Toronto Seattle Melbourne Oslo Nairobi
        """.split(separator: " ").map(String.init)

    /// A word, the first ones far more often than the last (the square of a uniform draw).
    static func next(using random: inout SplitMix64) -> String {
        let u = Double(random.next() >> 11) / Double(1 << 53)
        return all[Int(u * u * Double(all.count))]
    }
}
