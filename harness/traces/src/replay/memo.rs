//! Answers reused within one replay: a trace set repeats its questions (an agent asks
//! "where is replay implemented" every session), and the same request on the same loaded
//! fixture with the same engine (one profile per replay) gives the same answer. So each
//! (fixture, request) is answered once and every later trace asking it reuses the answer,
//! with the time the first answer took (so the latency figures stay the engine's, not the
//! memo's) and its JSON size counted once.
//!
//! The key is the fixture as loaded for this replay (its [`ReplayFixture::id`]) and the
//! request as the engine receives it (its JSON: mode, normalised arguments, defaults filled
//! in). The memo never blocks: two threads asking the same new question at once both
//! compute it (the answers are equal), since a thread waiting on another could be the one
//! rayon needs to finish it. It holds at most [`CAPACITY`] answers and starts over when
//! full, so its memory is bounded whatever the number of distinct questions.

use crate::replay::options::ReplayFixture;
use findbench_engine::{Engine, Request, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Answers kept at once.
pub const CAPACITY: usize = 4096;

/// One request answered on one fixture.
pub struct Answered {
    pub result: Result<Response, String>,
    /// What the first answer took, in ms (rounded to the microsecond).
    pub duration_ms: f64,
    output_bytes: OnceLock<u64>,
}

impl Answered {
    /// The answer's JSON size, counted by `count` the first time only.
    pub fn output_bytes(&self, count: impl FnOnce() -> u64) -> u64 {
        *self.output_bytes.get_or_init(count)
    }
}

/// The answers of one replay.
pub struct Memo {
    answers: Mutex<HashMap<(u64, String), Arc<Answered>>>,
    capacity: usize,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo::with_capacity(CAPACITY)
    }
}

impl Memo {
    pub fn new() -> Memo {
        Memo::default()
    }

    /// A memo holding at most `capacity` answers.
    pub fn with_capacity(capacity: usize) -> Memo {
        Memo {
            answers: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// `request` on `fixture`: answered now, or the answer of an equal request before.
    pub fn answer(
        &self,
        engine: &Engine,
        fixture: &ReplayFixture,
        request: &Request,
    ) -> Arc<Answered> {
        // a request that does not serialise is answered, never reused
        let key = serde_json::to_string(request)
            .ok()
            .map(|json| (fixture.id, json));
        if let Some(key) = &key {
            if let Some(found) = self.answers.lock().ok().and_then(|m| m.get(key).cloned()) {
                return found;
            }
        }
        let clock = Instant::now();
        let result = engine
            .execute(&fixture.fixture, request)
            .map_err(|e| e.to_string());
        let answered = Arc::new(Answered {
            result,
            duration_ms: (clock.elapsed().as_secs_f64() * 1e6).round() / 1e3,
            output_bytes: OnceLock::new(),
        });
        if let (Some(key), Ok(mut answers)) = (key, self.answers.lock()) {
            if answers.len() >= self.capacity {
                answers.clear();
            }
            answers.insert(key, Arc::clone(&answered));
        }
        answered
    }

    /// Answers held now.
    pub fn len(&self) -> usize {
        self.answers.lock().map_or(0, |m| m.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findbench_engine::modes::ask::AskRequest;
    use findbench_engine::{Fixture, Profile, Tree};

    fn fixture() -> ReplayFixture {
        let tree = Tree::from_memory(
            "mini",
            [("src/replay_service.cpp", "class ReplayService {};\n")],
        );
        ReplayFixture::new(Fixture::Tree(Arc::new(tree)))
    }

    fn ask(q: &str) -> Request {
        Request::Ask(AskRequest::new(q.to_string()))
    }

    #[test]
    fn an_equal_request_on_the_same_fixture_is_answered_once() {
        let engine = Engine::new(Profile::default());
        let memo = Memo::new();
        let (a, b) = (fixture(), fixture());
        let first = memo.answer(&engine, &a, &ask("where is replay implemented"));
        let again = memo.answer(&engine, &a.clone(), &ask("where is replay implemented"));
        assert!(Arc::ptr_eq(&first, &again), "reused");
        assert_eq!(first.output_bytes(|| 7), 7);
        assert_eq!(again.output_bytes(|| 9), 7, "counted once");
        // another question, or the same one on another fixture: answered anew
        let other = memo.answer(&engine, &a, &ask("where is replay defined"));
        assert!(!Arc::ptr_eq(&first, &other));
        let elsewhere = memo.answer(&engine, &b, &ask("where is replay implemented"));
        assert!(!Arc::ptr_eq(&first, &elsewhere));
        let ranked = |a: &Answered| a.result.as_ref().unwrap().ranked_keys().join(",");
        assert_eq!(ranked(&elsewhere), ranked(&first));
        assert_eq!(ranked(&first), "src/replay_service.cpp");
        assert_eq!(memo.len(), 3);
    }

    #[test]
    fn a_full_memo_starts_over() {
        let engine = Engine::new(Profile::default());
        let memo = Memo::with_capacity(3);
        let f = fixture();
        for i in 0..4 {
            memo.answer(&engine, &f, &ask(&format!("find thing{i}")));
        }
        assert_eq!(memo.len(), 1);
    }
}
