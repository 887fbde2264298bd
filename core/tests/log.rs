//! A handler's log messages (`ToolContext::log` and the level methods, `LogSink`): a
//! message nobody takes is never formatted, each level method logs at its level, and data
//! that does not serialize is logged as the failure.

use std::cell::Cell;
use std::fmt;
use std::sync::{Arc, Mutex};

use neuralis_core::dispatch::{LogLevel, LogMessage, LogSink, SessionContext, ToolContext};
use serde_json::Value;

/// A message that counts how often it is formatted.
struct Counted<'a>(&'a Cell<u32>);

impl fmt::Display for Counted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.set(self.0.get() + 1);
        f.write_str("counted")
    }
}

fn cx() -> ToolContext {
    ToolContext::new("t", SessionContext::builder("u").build())
}

#[test]
fn a_message_nobody_takes_is_never_formatted() {
    let formatted = Cell::new(0);
    let plain = cx();
    for level in LogLevel::ALL {
        plain.log(level, Counted(&formatted));
        assert!(!plain.log_enabled(level));
    }
    plain.debug(Counted(&formatted));
    plain.emergency(Counted(&formatted));
    plain.log_data(LogLevel::Error, &[1, 2, 3]);
    assert_eq!(formatted.get(), 0, "no sink: nothing formatted");

    let sent = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let sent = Arc::clone(&sent);
        LogSink::new(LogLevel::Error, move |m| {
            sent.lock().expect("not poisoned").push(m);
        })
    };
    let listened = cx().with_log(sink);
    for level in [LogLevel::Debug, LogLevel::Info, LogLevel::Notice] {
        listened.log(level, Counted(&formatted));
    }
    listened.warning(Counted(&formatted));
    assert_eq!(formatted.get(), 0, "below the threshold: nothing formatted");
    assert!(sent.lock().expect("not poisoned").is_empty());

    listened.error(Counted(&formatted));
    listened.emergency(Counted(&formatted));
    assert_eq!(formatted.get(), 2);
    let sent = sent.lock().expect("not poisoned");
    let levels: Vec<LogLevel> = sent.iter().map(|m| m.level).collect();
    assert_eq!(levels, [LogLevel::Error, LogLevel::Emergency]);
    assert!(
        sent.iter()
            .all(|m| &*m.logger == "t" && m.data == "counted")
    );
}

#[test]
fn every_level_method_logs_at_its_level_and_names_round_trip() {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let sent = Arc::clone(&sent);
        LogSink::new(LogLevel::Debug, move |m: LogMessage| {
            sent.lock().expect("not poisoned").push(m.level);
        })
    };
    let cx = cx().with_log(sink);
    cx.debug("m");
    cx.info("m");
    cx.notice("m");
    cx.warning("m");
    cx.error("m");
    cx.critical("m");
    cx.alert("m");
    cx.emergency("m");
    assert_eq!(*sent.lock().expect("not poisoned"), LogLevel::ALL);
    for pair in LogLevel::ALL.windows(2) {
        assert!(pair[0] < pair[1], "{pair:?}");
    }
    for level in LogLevel::ALL {
        assert_eq!(LogLevel::from_name(level.as_str()), Some(level));
        assert_eq!(level.to_string(), level.as_str());
    }
    assert_eq!(LogLevel::from_name("warn"), None);
}

#[test]
fn data_that_does_not_serialize_is_logged_as_the_failure() {
    struct Refuses;
    impl serde::Serialize for Refuses {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }
    let sent = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let sent = Arc::clone(&sent);
        LogSink::new(LogLevel::Debug, move |m: LogMessage| {
            sent.lock().expect("not poisoned").push(m.data);
        })
    };
    cx().with_log(sink).log_data(LogLevel::Info, &Refuses);
    assert_eq!(
        *sent.lock().expect("not poisoned"),
        [Value::String(
            "the log data could not be serialized: no".into()
        )]
    );
}
