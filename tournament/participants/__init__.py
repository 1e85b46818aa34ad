"""What a participant sees from his own phone, through his private link (``people.participant_links``):
his page (``views``)."""
