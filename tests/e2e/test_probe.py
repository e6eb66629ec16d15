"""The suite's page probe (tests/e2e/conftest.PROBE) reads the server's messages as
Streamlit writes them, so ``settle`` knows when a run has started without waiting."""

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

pytestmark = pytest.mark.e2e


def message(**fields) -> ForwardMsg:
    msg = ForwardMsg(hash="f" * 64)  # a long hash: its length takes one varint byte
    msg.metadata.delta_path.extend([0, 3, 1])
    for name, value in fields.items():
        if name == "delta":
            msg.delta.new_element.markdown.body = value
        elif name == "new_session":
            msg.new_session.name = value
        else:
            setattr(msg, name, value)
    return msg


@pytest.mark.parametrize(
    "msg",
    [
        message(new_session="app"),
        message(delta="x" * 300),  # a field whose length takes two varint bytes
        message(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY),
        message(heartbeat_ack=True),
    ],
    ids=["new_session", "delta", "script_finished", "heartbeat_ack"],
)
def test_the_probe_reads_each_message_kind_as_protobuf_writes_it(page, msg):
    page.set_content("<p>probe</p>")
    kind = msg.WhichOneof("type")
    read = page.evaluate(
        "(bytes) => window.__probe.kindOf(new Uint8Array(bytes))", list(msg.SerializeToString())
    )
    assert read == ForwardMsg.DESCRIPTOR.fields_by_name[kind].number
