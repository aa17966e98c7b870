import ComponentryList
import Foundation
import TallyEvent
import TallyStore

/// The user sheet's events as people read them: by day in the page's time zone, newest day
/// first; within a day by session, the session of the newest event first, the events
/// without a session together as "No session"; each event with its time, name and
/// properties.
enum TimelineView {
    /// One day's events.
    struct Day: Hashable, Sendable {
        /// The day, in the page's time zone.
        var day: CalendarDay
        /// The day's sessions, the one with the newest event first.
        var sessions: [Session]
    }

    /// The events of one session on one day, newest first.
    struct Session: Hashable, Sendable {
        /// The session's id; `nil` for the events that carry none.
        var id: String?
        var events: [Event]
    }

    /// `events` (newest first) by day in `zone`, then by session.
    static func days(of events: [Event], in zone: TimeZone) -> [Day] {
        var days: [Day] = []
        // Where each session of the last day is in its list.
        var sessions: [String?: Int] = [:]
        for event in events {
            let day = CalendarDay(event.timestamp, in: zone)
            if days.last?.day != day {
                days.append(Day(day: day, sessions: []))
                sessions = [:]
            }
            let last = days.count - 1
            if let index = sessions[event.sessionID] {
                days[last].sessions[index].events.append(event)
            } else {
                sessions[event.sessionID] = days[last].sessions.count
                days[last].sessions.append(Session(id: event.sessionID, events: [event]))
            }
        }
        return days
    }

    /// The HTML of `events` (newest first) grouped by ``days(of:in:)``: a `section` per day
    /// and per session, an `li` per event. Every text is escaped.
    static func html(_ events: [Event], in zone: TimeZone) -> String {
        var html = ""
        for day in days(of: events, in: zone) {
            html += "<section class=\"timeline-day\" data-day=\"\(day.day)\"><h3>\(day.day.readable)</h3>"
            for session in day.sessions {
                let count = session.events.count == 1 ? "1 event" : "\(session.events.count) events"
                let newest = session.events.first.map { $0.timestamp.clock(in: zone) } ?? ""
                let oldest = session.events.last.map { $0.timestamp.clock(in: zone) } ?? ""
                html += "<section class=\"timeline-session\" data-session=\"\(HTMLText.escape(session.id ?? ""))\"><h4>"
                html +=
                    session.id.map { "<span class=\"session-id\" title=\"\(HTMLText.escape($0))\">Session \(HTMLText.escape($0))</span>" }
                    ?? "<span class=\"session-id\">No session</span>"
                html +=
                    "<span class=\"detail\">\(count), \(newest == oldest ? newest : "\(oldest)–\(newest)")</span></h4><ol class=\"timeline-events\">"
                for event in session.events { html += Self.event(event, in: zone) }
                html += "</ol></section>"
            }
            html += "</section>"
        }
        return html
    }

    /// One event: its time, name, the screen of a `screen_view`, and its other properties as
    /// `key=value`, by key.
    static func event(_ event: Event, in zone: TimeZone) -> String {
        var html = "<li class=\"timeline-event\" data-event-id=\"\(event.id.uuidString)\">"
        html += "<time datetime=\"\(event.timestamp.ISO8601Format())\">\(event.timestamp.clock(in: zone))</time>"
        html += "<span class=\"event-name\">\(HTMLText.escape(event.name))</span>"
        var properties = event.properties
        if event.name == "screen_view", case .string(let screen)? = properties["screen"] {
            html += "<span class=\"event-screen\">\(HTMLText.escape(screen))</span>"
            properties["screen"] = nil
        }
        if !properties.isEmpty {
            html += "<ul class=\"event-properties\">"
            for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
                html += "<li>\(HTMLText.escape(key))=\(HTMLText.escape(value.segmentText ?? "null"))</li>"
            }
            html += "</ul>"
        }
        return html + "</li>"
    }

    /// `date` in `zone` as people read it: `20 Nov 2026, 14:03:22`.
    static func moment(_ date: Date, in zone: TimeZone) -> String {
        "\(CalendarDay(date, in: zone).readable), \(date.clock(in: zone))"
    }
}
