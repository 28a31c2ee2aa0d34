/// A revised headline and abstract that a developing story can be given by a later edit.
struct DemoHeadline: Sendable {
    var title: String
    var abstract: String
}

/// A related link: its text, the path after the date in its URL, and how many days
/// before the story it was published.
struct DemoRelatedLink: Sendable {
    var text: String
    var path: String
    var daysAgo: Int
}

/// One story the demo newswire can publish.
///
/// Every string may hold placeholders that ``DemoStoryBank/fill(_:with:)`` replaces with
/// names drawn per story, so a template reads a little differently each time it runs:
/// `{person}` (“Adaeze Lindqvist”), `{person.last}`, `{person.rev}` (“Lindqvist,
/// Adaeze”, as `per_facet` writes names), the same three for `{person2}`, `{company}`,
/// `{team}`, `{team2}`, `{town}` (“Millhaven, Vt.”), `{town.short}` and `{town.state}`.
struct DemoStoryTemplate: Sendable {
    var desk: DemoDesk
    var title: String
    var abstract: String
    var des: [String]
    var org: [String]
    var per: [String]
    var geo: [String]
    var caption: String
    /// The thumbnail, when not the desk's default.
    var image: DemoImage?
    /// A later headline for a developing story.
    var followUp: DemoHeadline?
    var related: [DemoRelatedLink]

    init(
        _ desk: DemoDesk,
        _ title: String,
        _ abstract: String,
        des: [String] = [],
        org: [String] = [],
        per: [String] = [],
        geo: [String] = [],
        caption: String,
        image: DemoImage? = nil,
        followUp: DemoHeadline? = nil,
        related: [DemoRelatedLink] = []
    ) {
        self.desk = desk
        self.title = title
        self.abstract = abstract
        self.des = des
        self.org = org
        self.per = per
        self.geo = geo
        self.caption = caption
        self.image = image
        self.followUp = followUp
        self.related = related
    }
}

/// The demo's fictional news: calm, plausible stories across the Times's sections,
/// plus the name pools that fill their placeholders. No real living person is named;
/// places are real, events and people are invented.
enum DemoStoryBank {
    /// Fictional photographers for `multimedia[].copyright`.
    static let photographers: [String] = [
        "Lena Ortiz", "Jonas Berglund", "Amina Sow", "Diego Calloway", "Yuki Hanamura",
        "Fiona McAllister", "Tariq Benhamou", "Celeste Varga", "Owen Prescott", "Ifeoma Nwachukwu",
    ]

    static let firstNames: [String] = [
        "Adaeze", "Tomasz", "Ingrid", "Mateo", "Priya", "Ruth", "Kenji", "Soraya", "Elliot",
        "Marguerite", "Nadia", "Callum", "Yusuf", "Beatriz", "Anneliese", "Femi", "Oona", "Rafael",
        "Hollis", "Mireille",
    ]

    static let lastNames: [String] = [
        "Okonkwo-Hale", "Lindqvist", "Ferreira-Bloom", "Castellanos", "Varga-Moreau", "Whitcombe",
        "Oyelaran", "Thorsby", "Marchetti", "Halvorsen", "Quintero", "Abernathy", "Sandoval-Reyes",
        "Kettleby", "Aramburu", "Van Houten", "Szabo-Grant", "Nakashima", "Delorme", "Ashgrove",
    ]

    static let companies: [String] = [
        "Corvane Systems", "Lumenfield", "Halberd Foods", "Brightwater Mobility", "Tessellate Labs",
        "Quillmark", "Aldermoor Bank", "Parallax Robotics", "Orchard & Finch", "Kestrel Freight",
        "Solvay Ridge Energy", "Marrow Lane Software",
    ]

    static let teams: [String] = [
        "Harbor City F.C.", "Northbridge United", "Westmere Athletic", "Calder Rovers",
        "Port Aldine S.C.", "Kestrel Valley F.C.", "Ravenmoor Town", "Saltmarsh Albion",
    ]

    /// (town, state abbreviation as the Times writes it, state name).
    static let towns: [(String, String, String)] = [
        ("Millhaven", "Vt.", "Vermont"), ("Cedar Hollow", "Iowa", "Iowa"),
        ("Port Winslow", "Maine", "Maine"), ("Larkspur Junction", "Colo.", "Colorado"),
        ("Harlow Springs", "Ark.", "Arkansas"), ("Alder Creek", "Ore.", "Oregon"),
        ("Stonebridge", "Minn.", "Minnesota"), ("Fairhaven Mills", "N.C.", "North Carolina"),
        ("Westbury Flats", "Neb.", "Nebraska"), ("Quarry Point", "Wis.", "Wisconsin"),
        ("Brookmere", "Pa.", "Pennsylvania"), ("Sable Ridge", "N.M.", "New Mexico"),
    ]

    /// Draws the placeholder values for one story: every key ``fill(_:with:)`` knows.
    static func drawFill(using rng: inout DemoRandom) -> [String: String] {
        let first1 = rng.pick(firstNames)
        let last1 = rng.pick(lastNames)
        var first2 = rng.pick(firstNames)
        if first2 == first1 {
            first2 = firstNames[(index(of: first1, in: firstNames) + 7) % firstNames.count]
        }
        var last2 = rng.pick(lastNames)
        if last2 == last1 { last2 = lastNames[(index(of: last1, in: lastNames) + 5) % lastNames.count] }
        let team = rng.pick(teams)
        var team2 = rng.pick(teams)
        if team2 == team { team2 = teams[(index(of: team, in: teams) + 3) % teams.count] }
        let town = rng.pick(towns)
        return [
            "person": "\(first1) \(last1)", "person.last": last1, "person.rev": "\(last1), \(first1)",
            "person2": "\(first2) \(last2)", "person2.last": last2, "person2.rev": "\(last2), \(first2)",
            "company": rng.pick(companies), "team": team, "team2": team2,
            "town": "\(town.0), \(town.1)", "town.short": town.0, "town.state": town.2,
        ]
    }

    private static func index(of item: String, in items: [String]) -> Int {
        items.firstIndex(of: item) ?? 0
    }

    /// `text` with each `{key}` replaced by `values[key]`; unknown keys are left as is.
    static func fill(_ text: String, with values: [String: String]) -> String {
        guard text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else {
                rest = rest[open...]
                break
            }
            let key = String(rest[afterOpen..<close])
            result += values[key] ?? "{\(key)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The templates, grouped by desk.
    static let templates: [DemoStoryTemplate] = world + nation + knowledge + culture + sports + living

    private static let world: [DemoStoryTemplate] = [
        .init(
            .worldEurope, "Lisbon Opens Its First New Tram Line in Decades",
            "The nine-mile route links the riverside districts with the northern suburbs, and city officials expect it to carry 40,000 riders a day by spring.",
            des: ["Transit Systems", "Urban Areas"], geo: ["Lisbon (Portugal)"],
            caption: "A new tram on its first run along the Tagus waterfront.",
            followUp: .init(
                title: "Riders Crowd Lisbon’s New Tram Line on Its First Day",
                abstract:
                    "Lines formed at stops along the nine-mile route, and the city added extra trams by midmorning to keep up with demand."
            ),
            related: [
                .init(
                    text: "Lisbon’s Trams, Through the Years", path: "world/europe/lisbon-trams-history",
                    daysAgo: 12)
            ]
        ),
        .init(
            .worldEurope, "Norway Expands Its Network of Free Mountain Huts",
            "The trekking association that runs the cabins says 14 new huts will open next summer, many of them reachable only on foot.",
            des: ["Hiking", "Travel and Vacations"], org: ["Norwegian Trekking Association"],
            geo: ["Norway"],
            caption: "A self-service hut above the Jotunheimen plateau.", image: .mountain
        ),
        .init(
            .worldEurope, "An Alpine Village Votes to Run Its Only Shop Together",
            "Residents of Sankt Almen, Austria, have formed a cooperative to keep open the grocery store that has served the village since 1911.",
            des: ["Cooperatives", "Rural Areas", "Grocery Stores and Supermarkets"], geo: ["Austria"],
            caption: "The village shop in Sankt Almen, where volunteers now work the register."
        ),
        .init(
            .worldEurope, "European Ministers Agree on Common Rules for Night Trains",
            "The agreement would let one ticket cover sleeper journeys across several borders, starting with routes linking Vienna, Amsterdam and Milan.",
            des: ["Railroads", "Travel and Vacations"], org: ["European Union"], geo: ["Europe"],
            caption: "A sleeper train waiting to depart from Vienna’s main station.",
            followUp: .init(
                title: "Night-Train Deal Clears Its Last Hurdle in Brussels",
                abstract:
                    "Transport ministers signed off on shared booking and safety rules, and the first through-tickets could go on sale next year."
            )
        ),
        .init(
            .worldEurope, "In Scotland, a Medieval Chapel Emerges From a Sheep Field",
            "Archaeologists said the stone foundations, uncovered during drainage work on a hill farm, appear to date to the 13th century.",
            des: ["Archaeology and Anthropology", "Churches (Buildings)"], geo: ["Scotland"],
            caption: "Volunteers brushing soil from the chapel’s foundations."
        ),
        .init(
            .worldAsia, "Seoul Turns an Old Elevated Road Into a Two-Mile Garden",
            "The walkway, planted with more than 200 species of trees and shrubs, opened to the public on Saturday morning.",
            des: ["Parks and Other Recreation Areas", "Urban Areas"], geo: ["Seoul (South Korea)"],
            caption: "Visitors on the new garden walkway above the city.", image: .leaf
        ),
        .init(
            .worldAsia, "Japan’s Rural Rail Lines Try Cafes and Concerts to Win Riders",
            "Local operators are turning quiet stations into cafes, galleries and guesthouses as they look for new ways to keep trains running.",
            des: ["Railroads", "Rural Areas"], geo: ["Japan"],
            caption: "A one-car train pulling into a station in Shimane Prefecture."
        ),
        .init(
            .worldAsia, "Mongolia’s Herders Test Solar-Powered Yurts for Winter",
            "A pilot program on the central steppe is giving 300 families panels and batteries to replace diesel generators.",
            des: ["Solar Energy", "Rural Areas"], geo: ["Mongolia"],
            caption: "Solar panels beside a family’s ger on the steppe."
        ),
        .init(
            .worldAsia, "Vietnam’s Coffee Growers Bet on a Hardier Bean",
            "Farmers in the Central Highlands are replanting with liberica, a variety that copes with heat and drought better than robusta.",
            des: ["Coffee", "Agriculture and Farming"], geo: ["Vietnam"],
            caption: "Coffee cherries drying in the sun near Buon Ma Thuot.", image: .leaf
        ),
        .init(
            .worldAfrica, "Ghana Switches On a Solar Farm Built for 100,000 Homes",
            "The project in the northern savanna is the largest of its kind in West Africa, according to the energy ministry.",
            des: ["Solar Energy", "Electric Light and Power"], geo: ["Ghana"],
            caption: "Rows of panels at the new plant outside Tamale."
        ),
        .init(
            .worldAfrica, "Dakar Fashion Week Puts Local Weavers at the Center",
            "Designers showed collections built around hand-loomed cotton from cooperatives across Senegal.",
            des: ["Fashion and Apparel", "Textiles"], geo: ["Dakar (Senegal)"],
            caption: "A model in a hand-woven coat on the runway.", image: .frame
        ),
        .init(
            .worldAfrica, "Rwanda’s Mountain Gorilla Numbers Rise Again, Survey Finds",
            "Conservationists counted more young gorillas in the Virunga massif than in any previous survey, a sign that protections are working.",
            des: ["Gorillas", "Endangered and Extinct Species"], geo: ["Rwanda"],
            caption: "A young gorilla in Volcanoes National Park.", image: .leaf
        ),
        .init(
            .worldAfrica, "A Library Boat Brings Books to the Islands of Lake Victoria",
            "The converted fishing vessel carries 4,000 books and stops at a dozen island villages every two weeks.",
            des: ["Libraries and Librarians", "Reading and Writing Skills"],
            geo: ["Lake Victoria", "Uganda"],
            caption: "Children choosing books on the boat’s deck.", image: .book
        ),
        .init(
            .worldAmericas, "Mexico City Brings Native Plants Back to Xochimilco’s Canals",
            "Ecologists and farmers are replanting the chinampas, the floating gardens that have fed the city for centuries.",
            des: ["Wetlands", "Agriculture and Farming"], geo: ["Mexico City (Mexico)"],
            caption: "A flat-bottomed boat passing replanted chinampas.", image: .waves
        ),
        .init(
            .worldAmericas, "Canada Adds a Vast Stretch of Arctic Coast to Its Parks",
            "The new protected area covers more than 2,000 miles of shoreline and will be managed jointly with Inuit communities.",
            des: ["National Parks", "Conservation of Resources"], geo: ["Canada", "Arctic Regions"],
            caption: "Sea ice along the coast of the new park.", image: .mountain
        ),
        .init(
            .worldAmericas, "Brazil’s Coffee Harvest Comes In Larger Than Expected",
            "Steady rains in Minas Gerais lifted output about 8 percent, easing prices that had climbed to a two-year high.",
            des: ["Coffee", "Commodities"], geo: ["Brazil"],
            caption: "Workers sorting beans at a cooperative in Minas Gerais.", image: .chart
        ),
        .init(
            .worldAmericas, "In Patagonia, Ranchers and Scientists Team Up to Protect a Rare Deer",
            "Landowners are opening fences and sharing camera-trap images to help biologists track the huemul, a shy deer of the southern Andes.",
            des: ["Deer", "Endangered and Extinct Species"], geo: ["Patagonia (Argentina and Chile)"],
            caption: "A huemul photographed by a camera trap.", image: .mountain
        ),
        .init(
            .worldMiddleEast, "A Restored Roman Theater in Jordan Hosts Its First Concert in Centuries",
            "Conservators spent six years stabilizing the stone seating at the site near Jerash, which can again hold 3,000 people.",
            des: ["Historic Buildings and Sites", "Classical Music"], geo: ["Jordan"],
            caption: "Musicians rehearsing on the restored stage.",
            related: [
                .init(
                    text: "Inside the Restoration of Jerash", path: "world/middleeast/jerash-restoration",
                    daysAgo: 30)
            ]
        ),
        .init(
            .worldMiddleEast, "Oman Widens Protections for Nesting Sea Turtles",
            "New rules limit lights and vehicles along 40 miles of beach on the Arabian Sea during the nesting season.",
            des: ["Turtles and Tortoises", "Beaches"], geo: ["Oman"],
            caption: "Green turtle hatchlings heading for the water at dawn.", image: .waves
        ),
        .init(
            .worldMiddleEast, "A Solar-Powered Desalination Plant Opens on the Gulf Coast",
            "Engineers say the plant near Abu Dhabi will produce drinking water for roughly 400,000 people.",
            des: ["Desalination", "Solar Energy", "Water"], geo: ["United Arab Emirates"],
            caption: "The plant’s intake pipes stretching into the Gulf.", image: .waves
        ),
    ]

    private static let nation: [DemoStoryTemplate] = [
        .init(
            .us, "{town.short} Votes to Turn Its Old Rail Yard Into a Park",
            "After years of debate, residents of {town} approved a $14 million plan that includes walking trails, ball fields and a community garden.",
            des: ["Parks and Other Recreation Areas", "Local Government"], geo: ["{town.state}"],
            caption: "The rail yard in {town.short}, where work is expected to begin next spring.",
            followUp: .init(
                title: "{town.short} Approves Rail-Yard Park by a Wide Margin",
                abstract:
                    "The final tally was nearly two to one, and the town council said construction could begin as soon as April."
            )
        ),
        .init(
            .us, "A Small-Town Library Now Lends Fishing Rods and Telescopes",
            "The library in {town} has built a “library of things” that circulates more than 600 items, from sewing machines to snowshoes.",
            des: ["Libraries and Librarians", "Rural Areas"], per: ["{person.rev}"],
            geo: ["{town.state}"],
            caption: "{person}, the library’s director, with a shelf of loaner telescopes.", image: .book
        ),
        .init(
            .us, "A Regional Rail Line in the Mountain West Wins Federal Support",
            "The grant covers new stations and track upgrades on a route that would link four cities along the Front Range.",
            des: ["Railroads", "Federal Aid (US)"], geo: ["Colorado"],
            caption: "A freight corridor that the new passenger service would share.", image: .mountain
        ),
        .init(
            .us, "Volunteers Count Migrating Cranes Along the Platte River",
            "More than 600 people joined this year’s tally in Nebraska, where hundreds of thousands of sandhill cranes stop on their journey north.",
            des: ["Birds", "Volunteers and Community Service"], geo: ["Nebraska"],
            caption: "Sandhill cranes gathering on a sandbar at dusk.", image: .waves
        ),
        .init(
            .us, "National Park Visits Set Another Record",
            "Park officials said the busiest sites are experimenting with timed entry and shuttle buses to ease crowding.",
            des: ["National Parks", "Travel and Vacations"], org: ["National Park Service"],
            caption: "Visitors on a trail in the early morning.", image: .mountain
        ),
        .init(
            .usPolitics, "Senate Committee Advances a Bipartisan Rural Broadband Bill",
            "The measure, which would pay for fiber connections in about 2,000 counties, cleared the committee 19 to 3 and heads to the full Senate.",
            des: ["Broadband", "Rural Areas", "Law and Legislation"], org: ["Senate"],
            caption: "The committee room before Thursday’s vote.",
            followUp: .init(
                title: "Senate Passes Rural Broadband Bill With Broad Support",
                abstract:
                    "The bill now goes to the House, where leaders of both parties have said they expect it to pass before the end of the session."
            ),
            related: [
                .init(
                    text: "The Long Road to Rural Internet", path: "us/politics/rural-broadband-explainer",
                    daysAgo: 9)
            ]
        ),
        .init(
            .usPolitics, "Governors From Both Parties Propose a Shared Wildfire Crew",
            "Eight Western states would pool firefighters and aircraft under the plan, which still needs approval from their legislatures.",
            des: ["Wildfires", "States (US)", "Governors (US)"], geo: ["Western States (US)"],
            caption: "A training exercise for seasonal firefighters."
        ),
        .init(
            .usPolitics, "A Former Schoolteacher Wins a Special Election in {town.short}",
            "{person}, who campaigned on fixing the town’s aging water pipes, won the state legislative seat by about 600 votes.",
            des: ["Elections, State Legislature", "Special Elections"], per: ["{person.rev}"],
            geo: ["{town.state}"],
            caption: "{person} greeting supporters on election night in {town}."
        ),
        .init(
            .usPolitics, "House Panel Weighs Ways to Speed Up Rural Mail Delivery",
            "Lawmakers pressed postal officials on delivery times and the pace of replacing the agency’s aging trucks.",
            des: ["Postal Service", "Rural Areas"],
            org: ["House of Representatives", "United States Postal Service"],
            caption: "Mail carriers loading trucks before dawn."
        ),
        .init(
            .business, "{company} Plans to Build Electric Delivery Vans in Ohio",
            "The company said the factory would employ about 1,200 people once it reaches full production in 2028.",
            des: ["Electric and Hybrid Vehicles", "Factories and Manufacturing"], org: ["{company}"],
            geo: ["Ohio"],
            caption: "A prototype van at the company’s test track."
        ),
        .init(
            .business, "Shipping Rates Ease as Ports Clear Their Backlogs",
            "The cost of moving a container across the Pacific has fallen for six straight weeks, freight analysts said.",
            des: ["Shipping and Shipbuilding", "Supply Chain"],
            caption: "Cranes unloading a container ship at the Port of Oakland.", image: .waves
        ),
        .init(
            .business, "Retailers Report Steady Holiday Sales as Shoppers Hunt for Deals",
            "Spending rose modestly from last year, with discount chains and online sellers gaining the most.",
            des: ["Shopping and Retail", "Holidays and Special Occasions"],
            caption: "Shoppers at a mall in New Jersey on Saturday.", image: .skyline
        ),
        .init(
            .dealBook, "{company} Agrees to Buy a Rival in a $2.4 Billion Deal",
            "The acquisition would combine two of the largest makers of warehouse robots and is expected to close next year.",
            des: ["Mergers, Acquisitions and Divestitures", "Robots and Robotics"], org: ["{company}"],
            caption: "Warehouse robots at one of the company’s distribution centers.",
            followUp: .init(
                title: "Shares of {company} Rise After $2.4 Billion Deal for Rival",
                abstract:
                    "Investors welcomed the acquisition, sending the stock up about 6 percent, as analysts pointed to savings from combining the two businesses."
            )
        ),
        .init(
            .dealBook, "A Start-Up Making Recyclable Batteries Raises $300 Million",
            "{company} said the money would pay for its first full-scale plant, which is planned for a former paper mill in Georgia.",
            des: ["Batteries", "Venture Capital", "Recycling of Waste Materials"], org: ["{company}"],
            caption: "Battery cells on the line at the company’s pilot plant."
        ),
        .init(
            .dealBook, "Why Investors Are Buying Up Veterinary Clinics",
            "Pet owners’ rising spending has drawn private equity firms to a fragmented industry of small practices.",
            des: ["Private Equity", "Veterinary Medicine", "Pets"],
            caption: "A veterinarian with a patient at a clinic in Ohio."
        ),
        .init(
            .economy, "Consumer Prices Rose Modestly Last Month",
            "Prices climbed 0.2 percent from the previous month, in line with forecasts, as lower fuel costs offset higher rents.",
            des: ["Consumer Price Index", "Inflation (Economics)"], org: ["Labor Department (US)"],
            caption: "Prices posted at a grocery store in Chicago."
        ),
        .init(
            .economy, "Hiring Picks Up in Health Care and Construction",
            "Employers added jobs at a steady pace last month, and wage growth held close to its recent trend.",
            des: ["Labor and Jobs", "Wages and Salaries"],
            caption: "Construction workers at a housing site in Phoenix."
        ),
        .init(
            .economy, "Mortgage Rates Dip to Their Lowest Level in Months",
            "The average 30-year fixed rate fell for a third straight week, giving a lift to would-be buyers heading into winter.",
            des: ["Mortgages", "Real Estate and Housing (Residential)"],
            caption: "A for-sale sign outside a house in suburban Atlanta.", image: .skyline
        ),
        .init(
            .economy, "Small Businesses Say Finding Workers Has Gotten Easier",
            "A monthly survey of owners found fewer unfilled openings, though many said they still struggled to hire skilled trades.",
            des: ["Small Business", "Labor and Jobs"],
            caption: "A bakery owner training a new employee in {town}."
        ),
    ]

    private static let knowledge: [DemoStoryTemplate] = [
        .init(
            .technology, "{company} Unveils a Phone Designed to Last a Decade",
            "The handset has a replaceable battery and screen, and the company promises software updates for ten years.",
            des: ["Smartphones", "Recycling of Waste Materials"], org: ["{company}"],
            caption: "The phone’s components laid out on a workbench."
        ),
        .init(
            .technology, "Cities Test Traffic Lights That Let Buses Go First",
            "Sensors on buses ask signals to stay green a few seconds longer, shaving minutes off crosstown trips in early trials.",
            des: ["Traffic and Parking", "Buses"], geo: ["United States"],
            caption: "A bus crossing an intersection fitted with the new signals.", image: .skyline
        ),
        .init(
            .technology, "A Tiny Satellite Built by Students Sends Home Its First Pictures",
            "The shoebox-size spacecraft, assembled by undergraduates in {town}, photographed the Great Lakes on its third orbit.",
            des: ["Satellites", "Colleges and Universities"], geo: ["{town.state}"],
            caption: "Students watching the first images arrive in their lab.", image: .globe
        ),
        .init(
            .technology, "Maintainers of Key Open-Source Tools Get New Funding",
            "A foundation backed by several technology companies will pay stipends to volunteers who look after widely used software libraries.",
            des: ["Open-Source Software", "Philanthropy"],
            caption: "A maintainer working from home in Portland, Ore."
        ),
        .init(
            .science, "Astronomers Find a Young Planet Still Glowing From Its Birth",
            "The gas giant, about 400 light-years away, is only a few million years old and still hot enough to shine in infrared light.",
            des: ["Planets", "Astronomy", "Space and Astronomy"],
            caption: "An artist’s rendering of the young planet and its disk.", image: .globe,
            related: [
                .init(text: "How Planets Are Born", path: "science/planet-formation-explainer", daysAgo: 40)
            ]
        ),
        .init(
            .science, "Octopuses May Have Something Like Dreams, a Study Suggests",
            "Researchers recorded sleeping octopuses cycling through bursts of color change that resemble the active phases of human sleep.",
            des: ["Octopuses", "Sleep", "Animal Cognition"],
            caption: "An octopus changing color during a period of active sleep.", image: .waves
        ),
        .init(
            .science, "Hikers’ Fossil Turns Out to Be a New Species of Early Whale",
            "The skull, spotted in a dry streambed, belonged to an animal that still had small hind legs about 40 million years ago.",
            des: ["Fossils", "Whales and Whaling", "Paleontology"], per: ["{person.rev}"],
            caption: "{person}, one of the hikers, at the site where the skull was found."
        ),
        .init(
            .science, "Scientists Map Humpback Whale Songs Across an Entire Ocean",
            "Recordings from 30 underwater microphones show new songs spreading from one population to the next within a single season.",
            des: ["Whales and Whaling", "Oceans and Seas"],
            caption: "A humpback whale surfacing off the coast of Hawaii.", image: .waves
        ),
        .init(
            .climate, "Coral Reefs Off Belize Show Signs of Recovery",
            "Surveys found healthy new growth on reefs that were replanted with heat-tolerant corals five years ago.",
            des: ["Coral", "Oceans and Seas", "Conservation of Resources"], geo: ["Belize"],
            caption: "A diver checking young coral on a restored reef.", image: .waves
        ),
        .init(
            .climate, "{town.short} Heats Its Homes With Water From an Old Mine",
            "Warm water pumped from flooded mine shafts now heats about 400 houses and a school in {town}.",
            des: ["Geothermal Power", "Mines and Mining"], geo: ["{town.state}"],
            caption: "A heat pump station above the old mine."
        ),
        .init(
            .climate, "A New Offshore Wind Farm Begins Sending Power to New England",
            "The first turbines are now feeding the grid, and the full array is expected to power 400,000 homes by next summer.",
            des: ["Wind Power", "Electric Light and Power"], geo: ["New England (US)"],
            caption: "Turbines on the horizon south of Martha’s Vineyard.", image: .waves,
            followUp: .init(
                title: "Offshore Wind Farm Reaches Half Its Planned Output",
                abstract:
                    "Grid operators said the turbines supplied steady power through a week of strong winds, ahead of the developer’s schedule."
            )
        ),
        .init(
            .climate, "Farmers Plant Hedgerows Again to Bring Back Birds and Bees",
            "A conservation program pays growers to restore the strips of shrubs and wildflowers that once lined fields across the Midwest.",
            des: ["Agriculture and Farming", "Bees", "Birds"], geo: ["Midwestern States (US)"],
            caption: "A restored hedgerow in bloom beside a soybean field."
        ),
        .init(
            .health, "Short Walks After Meals May Help Steady Blood Sugar",
            "In a small study, a 10-minute stroll after eating blunted the rise in glucose more than a longer walk before the meal.",
            des: ["Walking", "Blood Sugar", "Exercise"],
            caption: "An after-dinner walk in a neighborhood park."
        ),
        .init(
            .health, "More Hospitals Are Adding Gardens, and Patients Notice",
            "Surveys suggest patients with access to green space report less stress and sleep better during longer stays.",
            des: ["Hospitals", "Gardens and Gardening"],
            caption: "A rooftop garden at a hospital in Minneapolis.", image: .leaf
        ),
        .init(
            .health, "Why Some People Hear Better in Noisy Rooms",
            "A study of 2,000 adults points to attention, not just the ears, in picking out one voice in a crowd.",
            des: ["Hearing and Deafness", "Brain"],
            caption: "A busy restaurant in Brooklyn during the dinner rush."
        ),
        .init(
            .health, "Community Health Workers Help Rural Clinics Stay Open",
            "In {town}, trained neighbors visit patients at home, cutting missed appointments and emergency room trips.",
            des: ["Rural Areas", "Health Care Workers"], per: ["{person.rev}"], geo: ["{town.state}"],
            caption: "{person}, a community health worker, on a home visit."
        ),
    ]

    private static let culture: [DemoStoryTemplate] = [
        .init(
            .arts, "A Folk Art Museum Reopens With Twice the Gallery Space",
            "The museum in {town} spent two years on an expansion that brings quilts, carvings and weather vanes out of storage.",
            des: ["Museums", "Folk Art"], geo: ["{town.state}"],
            caption: "A gallery of hand-stitched quilts in the new wing."
        ),
        .init(
            .arts, "A Puppet Theater Marks 50 Years With a Festival",
            "Companies from 12 countries will perform in the theater’s small hall and in parks around the city.",
            des: ["Puppets", "Theater", "Festivals"],
            caption: "Puppeteers rehearsing backstage."
        ),
        .init(
            .arts, "A Ballet Company Takes a Portable Stage to Small Towns",
            "Dancers will perform on a fold-out stage in 30 towns this winter, many of which have never hosted a ballet.",
            des: ["Dancing", "Ballet", "Rural Areas"],
            caption: "Dancers warming up beside the company’s touring truck."
        ),
        .init(
            .music, "A Youth Orchestra From {town.short} Heads to Carnegie Hall",
            "The 70 young musicians raised money for the trip with bake sales and a summer of concerts at the county fair.",
            des: ["Classical Music", "Orchestras", "Youth"], org: ["Carnegie Hall"],
            geo: ["{town.state}"],
            caption: "The orchestra at its final rehearsal before the trip."
        ),
        .init(
            .music, "A New Generation Keeps New Orleans Brass Bands Loud",
            "Teenage players are filling second-line parades, learning standards from musicians three times their age.",
            des: ["Jazz", "Parades"], geo: ["New Orleans (La)"],
            caption: "A young trombonist during a Sunday second line."
        ),
        .init(
            .music, "Review: A Cellist’s Debut Album Finds Drama in Quiet Places",
            "{person} plays spare, patient music on a first album that rewards close listening.",
            des: ["Classical Music", "Cellos"], per: ["{person.rev}"],
            caption: "{person} recorded the album in a converted church."
        ),
        .init(
            .music, "The Pianist Who Plays in Train Stations, One City at a Time",
            "{person} has given free recitals in more than 40 stations, on whatever public piano happens to be there.",
            des: ["Pianos", "Railroads"], per: ["{person.rev}"],
            caption: "{person} playing to commuters during the evening rush."
        ),
        .init(
            .television, "A Gentle Baking Show Becomes an Unexpected Hit",
            "The competition, in which no one is eliminated, has become the streaming service’s most-watched series this fall.",
            des: ["Television", "Baking", "Reality Television"],
            caption: "Contestants in the show’s tent."
        ),
        .init(
            .television, "What to Watch This Weekend: Mysteries, Mountains and a Comedy",
            "A new detective series, a slow-paced nature documentary and a sitcom about a family hardware store lead this week’s picks.",
            des: ["Television", "Documentary Films and Programs"],
            caption: "A scene from the nature series, filmed over two winters."
        ),
        .init(
            .television, "A Detective Drama Set on a Scottish Island Gets a Second Season",
            "The series, filmed with a largely local cast, drew a devoted audience with its unhurried pace and misty landscapes.",
            des: ["Television", "Detective and Mystery Stories"], geo: ["Scotland"],
            caption: "The show’s harbor set on a wet morning."
        ),
        .init(
            .artDesign, "An Architect Turns Shipping Containers Into a Riverside Library",
            "{person}’s design stacks 24 containers into a reading room with views of the water.",
            des: ["Architecture", "Libraries and Librarians"], per: ["{person.rev}"],
            caption: "The library’s main reading room.", image: .book
        ),
        .init(
            .artDesign, "A Retrospective Reveals the Quiet Geometry of a Textile Designer",
            "The exhibition gathers 150 works by {person}, whose patterns hung in offices, trains and hospitals for four decades.",
            des: ["Textiles", "Art", "Museums"], per: ["{person.rev}"],
            caption: "Printed fabric samples in the exhibition."
        ),
        .init(
            .artDesign, "Redesigning the Humble Bus Stop",
            "Cities are trying shelters with green roofs, better seats and real-time arrival screens to make waiting less of a chore.",
            des: ["Design", "Buses", "Urban Areas"],
            caption: "A prototype shelter with a planted roof.", image: .skyline
        ),
        .init(
            .books, "A Debut Novel About a Lighthouse Keeper Wins a First-Fiction Prize",
            "{person}’s book follows a keeper and her daughter through a single storm-bound winter on a rocky island.",
            des: ["Books and Literature", "Awards, Decorations and Honors"], per: ["{person.rev}"],
            caption: "{person} at home, where much of the novel was written."
        ),
        .init(
            .books, "Independent Bookstores Report Their Best Year in a Decade",
            "Store owners credit author events, children’s sections and customers who want to browse in person.",
            des: ["Bookstores", "Books and Literature"], org: ["American Booksellers Association"],
            caption: "Browsers at an independent bookstore in {town}."
        ),
        .init(
            .books, "Review: A History of Maps That Reads Like an Adventure",
            "{person} traces how people charted coasts, stars and city streets, and what each map left out.",
            des: ["Books and Literature", "Maps"], per: ["{person.rev}"],
            caption: "A 17th-century chart of the North Atlantic reproduced in the book.", image: .globe
        ),
        .init(
            .books, "Six New Books to Read This Month",
            "A family saga, a field guide to clouds and a novel about a traveling circus are among our editors’ picks.",
            des: ["Books and Literature"],
            caption: "This month’s recommended books."
        ),
    ]

    private static let sports: [DemoStoryTemplate] = [
        .init(
            .sports, "A Marathon in the Desert Draws Runners From 60 Countries",
            "Organizers limited the field to 1,500 runners and added shaded water stations every two miles.",
            des: ["Marathon Running", "Deserts"],
            caption: "Runners at the start line just after sunrise.", image: .mountain
        ),
        .init(
            .sports, "A Minor League Ballpark Gets a Solar Roof",
            "The panels over the grandstand in {town} will supply most of the stadium’s power and shade fans on summer afternoons.",
            des: ["Baseball", "Minor Leagues", "Solar Energy"], geo: ["{town.state}"],
            caption: "Workers installing panels above the grandstand."
        ),
        .init(
            .sports, "College Rowing Crews Race Through Fog on the Charles",
            "Visibility dropped to a few hundred feet for the morning races, but officials kept the regatta on schedule.",
            des: ["Rowing", "Colleges and Universities"], geo: ["Boston (Mass)"],
            caption: "An eight emerging from the fog under a bridge.", image: .waves
        ),
        .init(
            .soccer, "{team} Wins in Stoppage Time to Stay Atop the Table",
            "A header in the 94th minute gave {team} a 2-1 victory over {team2} and a three-point lead at the top of the league.",
            des: ["Soccer"], org: ["{team}", "{team2}"],
            caption: "{team} players celebrating the late winner."
        ),
        .init(
            .soccer, "{team} and {team2} Play to a Scoreless Draw",
            "Both goalkeepers made several fine saves on a rain-soaked field, and neither side managed a shot in the final 20 minutes.",
            des: ["Soccer"], org: ["{team}", "{team2}"],
            caption: "A challenge for the ball in the second half.",
            followUp: .init(
                title: "{team} Held to Draw as Title Race Tightens",
                abstract:
                    "The scoreless result against {team2} left {team} level on points with two rivals heading into the final month."
            )
        ),
        .init(
            .soccer, "A Women’s League Sets an Attendance Record",
            "More than 41,000 fans watched Saturday’s final, the largest crowd in the league’s history.",
            des: ["Soccer", "Women and Girls"],
            caption: "A full stadium before kickoff."
        ),
        .init(
            .soccer, "{team2} Signs a 17-Year-Old Midfielder From Its Academy",
            "{person}, who joined the club’s youth program at 9, agreed to a first professional contract on Friday.",
            des: ["Soccer", "Youth"], org: ["{team2}"], per: ["{person.rev}"],
            caption: "{person} during a youth match last season."
        ),
        .init(
            .tennis, "{person} Wins a First Tour Title After Five Lost Finals",
            "The 24-year-old beat {person2} 6-4, 3-6, 7-5 in a final that lasted nearly three hours.",
            des: ["Tennis"], per: ["{person.rev}", "{person2.rev}"],
            caption: "{person} after match point.",
            related: [
                .init(
                    text: "The Long Wait for a First Title", path: "sports/tennis/first-title-finals",
                    daysAgo: 5)
            ]
        ),
        .init(
            .tennis, "A Clay-Court Tournament Returns to a Restored Seaside Club",
            "The event, dormant for 20 years, drew a full field and sellout crowds on the club’s rebuilt center court.",
            des: ["Tennis", "Historic Buildings and Sites"],
            caption: "The center court, rebuilt with its original grandstand."
        ),
        .init(
            .tennis, "{person} and {person2} Reach the Doubles Final",
            "The pair, who first played together as juniors, have not dropped a set all week.",
            des: ["Tennis"], per: ["{person.rev}", "{person2.rev}"],
            caption: "{person} and {person2} between points in the semifinal."
        ),
    ]

    private static let living: [DemoStoryTemplate] = [
        .init(
            .food, "The Soup That Gets a Mountain Town Through Winter",
            "In {town}, a white-bean and smoked-ham soup has been the centerpiece of a community supper for 60 years.",
            des: ["Soups", "Cooking and Cookbooks"], geo: ["{town.state}"],
            caption: "Volunteers ladling soup at the town hall."
        ),
        .init(
            .food, "Five Weeknight Dinners Built Around One Sheet Pan",
            "Roasted vegetables, crisp chicken thighs and a quick fish dish, each with a single pan to wash.",
            des: ["Cooking and Cookbooks", "Recipes"],
            caption: "Sheet-pan chicken with squash and red onions."
        ),
        .init(
            .food, "A Bakery Run by Retirees Sells Out Every Morning by Nine",
            "The volunteers in {town} bake 400 loaves a day, and the profits pay for the town’s summer camp.",
            des: ["Bakeries and Baked Products", "Volunteers and Community Service"],
            geo: ["{town.state}"],
            caption: "Loaves cooling on racks before the doors open."
        ),
        .init(
            .food, "The Return of the Neighborhood Diner",
            "Young owners are reviving shuttered diners with the same counters and booths, and menus that still list pie first.",
            des: ["Restaurants", "Diners"],
            caption: "The counter at a restored diner in {town}."
        ),
        .init(
            .travel, "36 Hours in Porto",
            "Tiled churches, riverside wine lodges and grilled sardines make this hilly Portuguese city an easy weekend escape.",
            des: ["Travel and Vacations"], geo: ["Porto (Portugal)"],
            caption: "The Ribeira district seen from across the Douro River.", image: .skyline,
            related: [
                .init(text: "36 Hours in Lisbon", path: "travel/things-to-do-in-lisbon", daysAgo: 60),
                .init(text: "Portugal by Train", path: "travel/portugal-train-trip", daysAgo: 21),
            ]
        ),
        .init(
            .travel, "A Slow Train Across the Canadian Rockies",
            "Two days, 600 miles and almost no cell signal on one of North America’s most scenic rail journeys.",
            des: ["Railroads", "Travel and Vacations"], geo: ["Canada", "Rocky Mountains"],
            caption: "The train crossing a trestle near the Continental Divide."
        ),
        .init(
            .travel, "The Islands of Croatia, by Ferry and Bicycle",
            "Local ferries and quiet coastal roads link a string of islands that are at their best in the shoulder season.",
            des: ["Travel and Vacations", "Bicycles and Bicycling", "Ferries"], geo: ["Croatia"],
            caption: "A ferry arriving at the harbor on Vis.", image: .waves
        ),
        .init(
            .travel, "How to Visit a National Park in the Off-Season",
            "Fewer crowds, cheaper lodging and a different kind of beauty, as long as you plan for shorter days.",
            des: ["National Parks", "Travel and Vacations"],
            caption: "A snowy trail in Zion National Park."
        ),
        .init(
            .opinion, "The Case for Bringing Back the Town Square",
            "Places to linger without buying anything are disappearing, and our civic life is thinner for it.",
            des: ["Urban Areas", "Parks and Other Recreation Areas"],
            caption: "A town square on a Saturday morning."
        ),
        .init(
            .opinion, "Libraries Are Still the Best Deal Around",
            "For the price of a library card, anyone can borrow books, use a computer or simply sit somewhere warm.",
            des: ["Libraries and Librarians"],
            caption: "A reading room on a winter afternoon.", image: .book
        ),
        .init(
            .opinion, "What a Year of Walking to Work Taught Me",
            "Forty minutes each way turned a commute into the best part of the day.",
            des: ["Walking", "Commuting"],
            caption: "A pedestrian crossing a bridge at dawn."
        ),
        .init(
            .weather, "First Snow of the Season Expected Across the Northern Rockies",
            "Forecasters expect four to eight inches in the higher valleys by Sunday, with lighter amounts in the foothills.",
            des: ["Snow and Snowstorms", "Weather"], org: ["National Weather Service"],
            geo: ["Rocky Mountains"],
            caption: "Clouds gathering over the peaks on Friday afternoon.",
            followUp: .init(
                title: "Snow Arrives Early in the Northern Rockies",
                abstract:
                    "The first flakes began falling on Saturday evening, and forecasters raised their totals for the higher valleys to as much as ten inches."
            )
        ),
        .init(
            .weather, "A Mild, Dry Weekend Ahead for the East Coast",
            "High pressure will bring sunshine and temperatures a few degrees above normal from Maine to the Carolinas.",
            des: ["Weather"], geo: ["East Coast (US)"],
            caption: "Sunshine over a park in Philadelphia."
        ),
        .init(
            .weather, "Morning Fog Slows Travel Around San Francisco Bay",
            "Visibility dropped below a quarter mile at the airport, and forecasters expect similar conditions through midweek.",
            des: ["Fog", "Weather", "Airlines and Airplanes"], geo: ["San Francisco Bay Area (Calif)"],
            caption: "Fog pouring over the hills above the bay."
        ),
    ]
}
