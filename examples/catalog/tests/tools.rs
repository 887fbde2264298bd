//! The catalog's tools as an author tests them: `neuralis::testing` over the package the
//! build script's table builds, each call through the whole pipeline.

use neuralis::dispatch::AskReason;
use neuralis::testing::TestClient;
use neuralis_example_catalog::neuralis_package;
use serde_json::json;

fn client() -> TestClient {
    TestClient::new(neuralis_package::package().expect("the catalog builds"))
}

#[test]
fn the_three_tools_are_served_in_name_order() {
    assert_eq!(
        client().list(),
        ["catalog_edit", "catalog_list", "catalog_reindex"]
    );
}

#[test]
fn the_list_filter_defaults_to_active_items() {
    let r = client().call("catalog_list", json!({}));
    assert!(!r.is_error(), "{r:?}");
    assert_eq!(
        r.structured(),
        Some(json!({"ok": true, "items": [{"id": "1", "name": "Lamp", "status": "active"}]}))
    );
    let all = client().call("catalog_list", json!({"filter": "all"}));
    assert_eq!(
        all.structured().expect("items")["items"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    client()
        .call("catalog_list", json!({"filter": "gone"}))
        .assert_invalid_at("/filter");
}

#[test]
fn deleting_asks_for_approval() {
    let delete = json!({"id": "1", "delete": false});
    let refused = client().call("catalog_edit", delete.clone());
    assert_eq!(refused.refusal(), Some("approval-required"));
    assert_eq!(
        refused.asked(),
        Some(&AskReason::Keys(vec!["delete".into()]))
    );
    let declined = client()
        .approving(false)
        .call("catalog_edit", delete.clone());
    assert_eq!(declined.refusal(), Some("approval-required"));
    let approved = client().approving(true).call("catalog_edit", delete);
    assert_eq!(
        approved.structured(),
        Some(json!({"ok": true, "id": "1", "deleted": false}))
    );
    // Renaming asks nobody.
    let renamed = client().call("catalog_edit", json!({"id": "1", "name": "Desk lamp"}));
    assert_eq!((renamed.is_error(), renamed.asked()), (false, None));
}

#[test]
fn reindexing_reports_a_progress_per_batch() {
    let r = client().call("catalog_reindex", json!({"batches": 3, "batch_ms": 1}));
    assert_eq!(
        r.structured(),
        Some(json!({"ok": true, "batches": 3, "items": 2}))
    );
    let messages: Vec<_> = r
        .progress()
        .iter()
        .map(|p| (p.done, p.total, p.message.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        messages,
        [
            (1.0, Some(3.0), "indexed batch 1 of 3".to_owned()),
            (2.0, Some(3.0), "indexed batch 2 of 3".to_owned()),
            (3.0, Some(3.0), "indexed batch 3 of 3".to_owned()),
        ]
    );
    assert_eq!(r.card()["status"]["tone"], "success");
}
