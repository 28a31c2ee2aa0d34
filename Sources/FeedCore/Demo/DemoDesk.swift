/// A section (and subsection) of the simulated Times Newswire: what the feed calls it,
/// where its URLs live, which thumbnail it shows by default, and who writes for it.
enum DemoDesk: Sendable, CaseIterable {
    case worldEurope, worldAsia, worldAfrica, worldAmericas, worldMiddleEast
    case us, usPolitics
    case business, dealBook, economy
    case technology, science, climate, health
    case arts, music, television, artDesign
    case books
    case sports, soccer, tennis
    case food, travel, opinion, weather

    /// The `section` field.
    var section: String {
        switch self {
        case .worldEurope, .worldAsia, .worldAfrica, .worldAmericas, .worldMiddleEast: "World"
        case .us, .usPolitics: "U.S."
        case .business, .dealBook, .economy: "Business"
        case .technology: "Technology"
        case .science: "Science"
        case .climate: "Climate"
        case .health: "Health"
        case .arts, .music, .television, .artDesign: "Arts"
        case .books: "Books"
        case .sports, .soccer, .tennis: "Sports"
        case .food: "Food"
        case .travel: "Travel"
        case .opinion: "Opinion"
        case .weather: "Weather"
        }
    }

    /// The `subsection` field ("" when the story sits at the section's top level).
    var subsection: String {
        switch self {
        case .worldEurope: "Europe"
        case .worldAsia: "Asia Pacific"
        case .worldAfrica: "Africa"
        case .worldAmericas: "Americas"
        case .worldMiddleEast: "Middle East"
        case .usPolitics: "Politics"
        case .dealBook: "DealBook"
        case .economy: "Economy"
        case .music: "Music"
        case .television: "Television"
        case .artDesign: "Art & Design"
        case .books: "Book Review"
        case .soccer: "Soccer"
        case .tennis: "Tennis"
        default: ""
        }
    }

    /// The path between the date and the slug in a story URL.
    var urlPath: String {
        switch self {
        case .worldEurope: "world/europe"
        case .worldAsia: "world/asia"
        case .worldAfrica: "world/africa"
        case .worldAmericas: "world/americas"
        case .worldMiddleEast: "world/middleeast"
        case .us: "us"
        case .usPolitics: "us/politics"
        case .business: "business"
        case .dealBook: "business/dealbook"
        case .economy: "business/economy"
        case .technology: "technology"
        case .science: "science"
        case .climate: "climate"
        case .health: "health"
        case .arts: "arts"
        case .music: "arts/music"
        case .television: "arts/television"
        case .artDesign: "arts/design"
        case .books: "books/review"
        case .sports: "sports"
        case .soccer: "sports/soccer"
        case .tennis: "sports/tennis"
        case .food: "dining"
        case .travel: "travel"
        case .opinion: "opinion"
        case .weather: "weather"
        }
    }

    /// The desk code that starts a `slug_name` after the day of the month ("22int-…").
    var slugCode: String {
        switch self {
        case .worldEurope, .worldAsia, .worldAfrica, .worldAmericas, .worldMiddleEast: "int"
        case .us: "us"
        case .usPolitics: "pol"
        case .business: "biz"
        case .dealBook: "db"
        case .economy: "econ"
        case .technology: "tech"
        case .science: "sci"
        case .climate: "clim"
        case .health: "well"
        case .arts, .artDesign: "arts"
        case .music: "music"
        case .television: "tv"
        case .books: "books"
        case .sports: "sports"
        case .soccer: "soccer"
        case .tennis: "tennis"
        case .food: "food"
        case .travel: "travel"
        case .opinion: "opinion"
        case .weather: "weather"
        }
    }

    /// The thumbnail a story of this desk shows unless its template picks another.
    var image: DemoImage {
        switch self {
        case .worldEurope, .worldAsia, .worldAfrica, .worldAmericas, .worldMiddleEast: .globe
        case .us, .opinion: .skyline
        case .usPolitics: .capitol
        case .business, .dealBook, .economy: .chart
        case .technology, .television: .screen
        case .science: .microscope
        case .climate: .leaf
        case .health: .heart
        case .arts, .artDesign: .frame
        case .music: .vinyl
        case .books: .book
        case .sports, .soccer, .tennis: .ball
        case .food: .plate
        case .travel: .mountain
        case .weather: .cloud
        }
    }

    /// `material_type_facet`: the real feed marks opinion pieces "Op-Ed".
    var materialType: String {
        self == .opinion ? "Op-Ed" : "News"
    }

    /// `kicker`: empty except for guest essays, as on the real feed.
    var kicker: String {
        self == .opinion ? "Guest Essay" : ""
    }

    /// Fictional staff who write for the desk (bylines draw one to three of them).
    var reporters: [String] {
        switch self {
        case .worldEurope, .worldAsia, .worldAfrica, .worldAmericas, .worldMiddleEast:
            [
                "Ines Albuquerque", "Tobias Lindahl", "Margaux Fontaine", "Hana Kobayashi-Reyes",
                "Farid Haddadi", "Lucía Benavente", "Oskar Nyström", "Amara Diallo-Fisher",
            ]
        case .us:
            ["Caroline Ashby", "Darnell Whitfield", "Meredith Cobb", "Luis Arreola", "Grace Tollefson"]
        case .usPolitics: ["Eleanor Pryce", "Marcus Delacroix-Hale", "Sofia Brandt", "Theo Marchbanks"]
        case .business, .dealBook, .economy:
            ["Julian Okonjo", "Rebecca Stahl", "Priya Raman-Ellis", "Nathaniel Voss", "Ada Kowalczyk"]
        case .technology: ["Leo Tanabe", "Miriam Osei-Hart", "Sam Whitaker-Ruiz", "Ada Kowalczyk"]
        case .science: ["Clara Everly", "Jonah Feldkamp", "Nneka Obiora"]
        case .climate: ["Henrik Solberg", "Maya Castellano", "Wes Danforth"]
        case .health: ["Anjali Sethna", "Robert Ellingsworth", "Dana Kiprop"]
        case .arts, .music, .television, .artDesign:
            ["Vivienne Marlowe", "Isaac Benaroya", "Chloe Armitage", "Reuben Castell"]
        case .books: ["Harriet Quayle", "Simon Achterberg", "Noor Jaffrey"]
        case .sports, .soccer, .tennis:
            ["Patrick Doolan", "Bianca Ferraro", "Andre Whitlock", "Kofi Mensah-Laird"]
        case .food: ["Genevieve Tran", "Ollie Brannigan", "Rosa Iturbe"]
        case .travel: ["Freya Lindgren", "Matteo Castiglioni", "June Okamura"]
        case .opinion: ["Adrian Vell", "Tamsin Rowe", "Elias Morrow"]
        case .weather: ["Judson Reyes-Park", "Ava Whitcombe"]
        }
    }

    /// Sentences an abstract can gain when the story is updated.
    var updateSentences: [String] {
        switch self {
        case .worldEurope, .worldAsia, .worldAfrica, .worldAmericas, .worldMiddleEast:
            [
                "Officials said further details would be announced later this week.",
                "Local news outlets reported that the plan had broad public support.",
            ]
        case .us:
            [
                "Local officials said a public meeting on the plan would be held next month.",
                "Residents said they had waited years for the change.",
            ]
        case .usPolitics:
            [
                "A final vote could come as soon as next week, aides said.",
                "Lawmakers from both parties said they expected the measure to advance.",
            ]
        case .business, .dealBook, .economy:
            [
                "Shares of the company were little changed in afternoon trading.",
                "Analysts said the figures were broadly in line with expectations.",
            ]
        case .technology:
            [
                "The company said the feature would roll out gradually over the coming weeks.",
                "Early reviewers described the changes as modest but welcome.",
            ]
        case .science:
            [
                "The findings were published this week in a peer-reviewed journal.",
                "Other researchers said the results would need to be replicated.",
            ]
        case .climate:
            [
                "Researchers said they would keep monitoring the site through next year.",
                "State officials said similar projects could follow elsewhere.",
            ]
        case .health:
            [
                "Researchers cautioned that larger studies would be needed to confirm the results.",
                "Doctors not involved in the work called the approach promising.",
            ]
        case .arts, .music, .television, .artDesign:
            ["Tickets go on sale next week, organizers said.", "The run has already been extended once."]
        case .books:
            [
                "The author will appear at several independent bookstores this winter.",
                "An excerpt is available on the publisher’s website.",
            ]
        case .sports, .soccer, .tennis:
            [
                "Both coaches praised their players’ effort afterward.",
                "The two sides meet again later this season.",
            ]
        case .food:
            [
                "The full recipe is available on NYT Cooking.",
                "Reservations open on the first of each month.",
            ]
        case .travel:
            [
                "Prices drop noticeably outside the summer months.",
                "Advance booking is recommended on weekends.",
            ]
        case .opinion:
            [
                "The author responds to readers’ letters below.",
                "This essay has been updated to clarify a figure.",
            ]
        case .weather:
            [
                "Forecasters said they would update the outlook on Sunday evening.",
                "Conditions are expected to improve by early next week.",
            ]
        }
    }
}
