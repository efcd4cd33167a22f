package org.apache.kafka.common.message;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.ImplicitLinkedHashCollection;
import org.apache.kafka.common.utils.ImplicitLinkedHashMultiCollection;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

// STUB of the class Kafka generates from clients/src/main/resources/common/message/JoinGroupRequest.json.
// Only the nested Protocols element and its collection are reproduced, following what
// generator/.../MessageDataGenerator.java emits for a struct array with a "mapKey" field (Name):
// an element implementing ImplicitLinkedHashMultiCollection.Element whose elementKeysAreEqual/hashCode
// use the map key only, and a collection extending ImplicitLinkedHashMultiCollection (so duplicate
// names are kept, as the wire deserializer keeps them).
public class JoinGroupRequestData {
    private String protocolType = "";
    private JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestProtocolCollection(0);

    public String protocolType() { return protocolType; }
    public JoinGroupRequestProtocolCollection protocols() { return protocols; }
    public JoinGroupRequestData setProtocolType(String v) { this.protocolType = v; return this; }
    public JoinGroupRequestData setProtocols(JoinGroupRequestProtocolCollection v) { this.protocols = v; return this; }

    public static class JoinGroupRequestProtocol implements ImplicitLinkedHashMultiCollection.Element {
        String name;
        byte[] metadata;
        private int next;
        private int prev;

        public JoinGroupRequestProtocol() {
            this.name = "";
            this.metadata = Bytes.EMPTY;
            this.prev = ImplicitLinkedHashCollection.INVALID_INDEX;
            this.next = ImplicitLinkedHashCollection.INVALID_INDEX;
        }

        @Override
        public boolean elementKeysAreEqual(Object obj) {
            if (!(obj instanceof JoinGroupRequestProtocol)) return false;
            JoinGroupRequestProtocol other = (JoinGroupRequestProtocol) obj;
            if (this.name == null) {
                if (other.name != null) return false;
            } else {
                if (!this.name.equals(other.name)) return false;
            }
            return true;
        }

        @Override
        public boolean equals(Object obj) {
            if (!(obj instanceof JoinGroupRequestProtocol)) return false;
            JoinGroupRequestProtocol other = (JoinGroupRequestProtocol) obj;
            if (this.name == null) {
                if (other.name != null) return false;
            } else {
                if (!this.name.equals(other.name)) return false;
            }
            if (!Arrays.equals(this.metadata, other.metadata)) return false;
            return true;
        }

        @Override
        public int hashCode() {
            int hashCode = 0;
            hashCode = 31 * hashCode + (name == null ? 0 : name.hashCode());
            return hashCode;
        }

        public JoinGroupRequestProtocol duplicate() {
            JoinGroupRequestProtocol _duplicate = new JoinGroupRequestProtocol();
            _duplicate.name = name;
            _duplicate.metadata = metadata == null ? null : Arrays.copyOf(metadata, metadata.length);
            return _duplicate;
        }

        public String name() { return this.name; }
        public byte[] metadata() { return this.metadata; }
        @Override public int next() { return this.next; }
        @Override public int prev() { return this.prev; }
        public JoinGroupRequestProtocol setName(String v) { this.name = v; return this; }
        public JoinGroupRequestProtocol setMetadata(byte[] v) { this.metadata = v; return this; }
        @Override public void setNext(int v) { this.next = v; }
        @Override public void setPrev(int v) { this.prev = v; }
    }

    public static class JoinGroupRequestProtocolCollection extends ImplicitLinkedHashMultiCollection<JoinGroupRequestProtocol> {
        public JoinGroupRequestProtocolCollection() { super(); }
        public JoinGroupRequestProtocolCollection(int expectedNumElements) { super(expectedNumElements); }
        public JoinGroupRequestProtocolCollection(Iterator<JoinGroupRequestProtocol> iterator) { super(iterator); }

        public JoinGroupRequestProtocol find(String name) {
            JoinGroupRequestProtocol _key = new JoinGroupRequestProtocol();
            _key.setName(name);
            return find(_key);
        }

        public List<JoinGroupRequestProtocol> findAll(String name) {
            JoinGroupRequestProtocol _key = new JoinGroupRequestProtocol();
            _key.setName(name);
            return findAll(_key);
        }

        public JoinGroupRequestProtocolCollection duplicate() {
            JoinGroupRequestProtocolCollection _duplicate = new JoinGroupRequestProtocolCollection(size());
            for (JoinGroupRequestProtocol _element : this) {
                _duplicate.add(_element.duplicate());
            }
            return _duplicate;
        }
    }
}
